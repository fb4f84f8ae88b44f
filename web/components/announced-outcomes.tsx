'use client';

import type { ReactNode, RefObject } from 'react';

/**
 * Actions that a `router.refresh()` removes announce what they did from here: `children` in a
 * wrapper with no box of its own (`root` finds the refreshed items in it, the layout stays as it
 * was), and a polite live region beside it that the refresh leaves in place.
 */
export function AnnouncedOutcomes({
  root,
  outcome,
  testId,
  children,
}: {
  root: RefObject<HTMLDivElement | null>;
  outcome: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <>
      <div ref={root} style={{ display: 'contents' }}>
        {children}
      </div>
      <p className="sr-only" role="status" aria-live="polite" data-testid={testId}>
        {outcome}
      </p>
    </>
  );
}
