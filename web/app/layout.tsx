import type { Metadata, Viewport } from 'next';
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
 * Every page renders per request: Next puts the proxy's per-request CSP nonce on its inline
 * scripts (a prerendered page would carry none), and the build never renders a page, so it never
 * reads the configuration or generates secrets (see server/context.ts).
 */
export const dynamic = 'force-dynamic';

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
