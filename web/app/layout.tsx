import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { platformNames } from '#components/lib/platforms.ts';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Postwave', template: '%s · Postwave' },
  description: `Write once, publish everywhere: schedule posts to ${platformNames()}.`,
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f6f7fb' },
    { media: '(prefers-color-scheme: dark)', color: '#0e1117' },
  ],
};

/**
 * Async on purpose: reading the request makes every page render per request, so Next can put
 * the proxy's per-request CSP nonce on its inline scripts (a prerendered page would carry none).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await headers();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
