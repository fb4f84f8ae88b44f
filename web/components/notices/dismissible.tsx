'use client';

import { type ReactNode, useState } from 'react';
import './notices.css';
import { Icon } from '../icons.tsx';
import { dismissedCookie } from './dismissed-cookie.ts';

/**
 * A notice the person can close. Closing hides it at once and sets a cookie, so the server does not
 * render it again on the next page (no flash of a notice already dismissed).
 */
export function Dismissible({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <section className={`${className} dismissible`} aria-label={label} data-testid={`notice-${id}`}>
      <div className="dismissible-body">{children}</div>
      <button
        type="button"
        className="btn btn-ghost btn-sm dismiss-button"
        aria-label={`Dismiss: ${label}`}
        onClick={() => {
          // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie, read by the server on the next page
          document.cookie = `${dismissedCookie(id)}=1; path=/; max-age=31536000; samesite=lax`;
          setOpen(false);
        }}
      >
        <Icon name="close" size={16} />
      </button>
    </section>
  );
}
