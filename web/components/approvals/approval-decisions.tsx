'use client';

import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { AnnouncedOutcomes } from '../announced-outcomes.tsx';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

/** Says a decision (approve or reject) on the post `id` was taken; `outcome` is announced. */
type Decided = (id: string, outcome: string) => void;

const DecisionContext = createContext<Decided | undefined>(undefined);

/** The decision reporter of the nearest `ApprovalDecisions`. */
export const useDecided = () => useContext(DecisionContext);

/**
 * Around a page's approval actions: a decision's outcome is announced from a live region here,
 * which the `router.refresh()` after it does not remove (the decided item and its own region go),
 * and once the refreshed page shows the item gone the focus moves to the next item's first
 * action, or to `fallbackFocusId` (the list's heading) when none is left, not to <body>.
 */
export function ApprovalDecisions({
  fallbackFocusId,
  children,
}: {
  fallbackFocusId: string;
  children: ReactNode;
}) {
  const root = useRef<HTMLDivElement>(null);
  const [outcome, setOutcome] = useState('');
  const focusAfterRender = useFocusAfterRender();

  const decided = useCallback<Decided>(
    (id, text) => {
      const items = [...(root.current?.querySelectorAll<HTMLElement>('[data-approval-item]') ?? [])];
      const at = items.findIndex((el) => el.dataset.approvalItem === id);
      const neighbour = (items[at + 1] ?? items[at - 1])?.dataset.approvalItem;
      setOutcome(text);
      focusAfterRender(() => {
        const item = (key: string) =>
          root.current?.querySelector<HTMLElement>(`[data-approval-item="${key}"]`);
        if (item(id)) return null; // the refreshed page has not arrived yet
        return (
          (neighbour && item(neighbour)?.querySelector<HTMLElement>('button')) ||
          document.getElementById(fallbackFocusId)
        );
      });
    },
    [fallbackFocusId, focusAfterRender],
  );

  return (
    <DecisionContext.Provider value={decided}>
      <AnnouncedOutcomes root={root} outcome={outcome} testId="approval-outcome">
        {children}
      </AnnouncedOutcomes>
    </DecisionContext.Provider>
  );
}
