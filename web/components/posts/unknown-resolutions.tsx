'use client';

import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { AnnouncedOutcomes } from '../announced-outcomes.tsx';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

/** Says the unknown target of `accountId` was resolved; `outcome` is announced. */
type Resolved = (accountId: string, outcome: string) => void;

const ResolvedContext = createContext<Resolved | undefined>(undefined);

/** The resolution reporter of the nearest `UnknownResolutions`. */
export const useResolved = () => useContext(ResolvedContext);

/**
 * Around the post page's account rows: once "Mark as posted" or "Post again" resolved a target,
 * the `router.refresh()` after it removes those actions (the focus with them). The outcome is
 * announced from a live region here, which the refresh does not remove, and once the refreshed
 * row arrives (without its actions) the focus moves to that row (`data-result-account`,
 * `tabIndex={-1}`), not to <body>.
 */
export function UnknownResolutions({ children }: { children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null);
  const [outcome, setOutcome] = useState('');
  const focusAfterRender = useFocusAfterRender();

  const resolved = useCallback<Resolved>(
    (accountId, text) => {
      setOutcome(text);
      focusAfterRender(() => {
        const row = root.current?.querySelector<HTMLElement>(
          `[data-result-account="${CSS.escape(accountId)}"]`,
        );
        // The refreshed page has not arrived while the row still offers the actions.
        return row?.querySelector('[data-unknown-actions]') ? null : row;
      });
    },
    [focusAfterRender],
  );

  return (
    <ResolvedContext.Provider value={resolved}>
      <AnnouncedOutcomes root={root} outcome={outcome} testId="unknown-outcome">
        {children}
      </AnnouncedOutcomes>
    </ResolvedContext.Provider>
  );
}
