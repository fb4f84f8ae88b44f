'use client';

import type { ReactNode } from 'react';

/**
 * A `<details>` menu that Escape closes, giving the focus back to its summary (as a menu button
 * does); the native element only toggles on Enter or Space on the summary.
 */
export function EscapableDetails({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <details
      className={className}
      onKeyDown={(event) => {
        const details = event.currentTarget;
        if (event.key !== 'Escape' || !details.open) return;
        event.preventDefault();
        details.open = false;
        details.querySelector('summary')?.focus();
      }}
    >
      {children}
    </details>
  );
}
