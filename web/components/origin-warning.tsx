'use client';

import { useEffect, useState } from 'react';
import { Icon } from './icons.tsx';

/**
 * Shown when the page was opened at another origin than APP_URL (http://127.0.0.1:3000 versus
 * http://localhost:3000): the browser then blocks direct uploads to APP_URL (CORS) and sign-in
 * redirects land on the other origin. Rendered after hydration, since only the browser knows
 * the address it is at.
 */
export function OriginWarning({ appOrigin }: { appOrigin: string }) {
  const [here, setHere] = useState<string>();
  useEffect(() => setHere(window.location.origin), []);
  if (!here || here === appOrigin) return null;
  const sameUrlThere = `${appOrigin}${window.location.pathname}${window.location.search}`;
  return (
    <section
      className="alert alert-warn origin-warning"
      aria-label="Address warning"
      data-testid="origin-warning"
    >
      <p>
        <Icon name="warning" size={16} /> This page is open at <strong>{here}</strong>, but the server’s
        address (APP_URL) is <strong>{appOrigin}</strong>. Your browser treats them as different sites, so
        direct uploads are blocked and go the slower way through the server, and signing in with another
        service may fail. <a href={sameUrlThere}>Open this page at {appOrigin}</a>, or ask the operator to set
        APP_URL to the address you use.
      </p>
    </section>
  );
}
