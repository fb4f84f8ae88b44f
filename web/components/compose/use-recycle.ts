'use client';

import { useState } from 'react';
import type { ProblemIssue } from '#components/lib/api.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import {
  type RecycleDraft,
  type RecycleErrors,
  type RecycleSettings,
  recycleBody,
  recycleDraft,
  recycleIssues,
  recycleProblems,
} from './recycle-field.tsx';

/** The composer's one sentence when the repeat settings stop a submit. */
export const recycleRefusedMessage = 'Fix the repeat settings marked above, then try again.';

/**
 * The "Repeat this post" section's state: its draft, and its errors at the fields. The limits are
 * checked from the first submit on (not while first typed), live from then, so fixing a value
 * clears its sentence; the server's refusals show until the settings change.
 */
export function useRecycle(
  recycle: RecycleSettings | null | undefined,
  timezone: string,
  recyclable: boolean,
) {
  const [draft, setDraftState] = useState(() => recycleDraft(recycle, timezone));
  const [checked, setChecked] = useState(false);
  const [refused, setRefused] = useState<RecycleErrors>({});
  const focusAfterRender = useFocusAfterRender();
  const errors: RecycleErrors = recyclable
    ? { ...refused, ...(checked ? recycleProblems(draft, timezone) : {}) }
    : {};
  return {
    draft,
    errors,
    setDraft(next: RecycleDraft) {
      setDraftState(next);
      setRefused({});
    },
    /** Whether the settings may be sent; if not, marks them and focuses the first bad field. */
    check(): boolean {
      if (!recyclable) return true;
      setChecked(true);
      if (Object.keys(recycleProblems(draft, timezone)).length === 0) return true;
      focusAfterRender(() => document.querySelector<HTMLElement>('.recycle-field [aria-invalid="true"]'));
      return false;
    },
    /** The request's `recycle` (undefined for a recycled copy, which follows its original). */
    body: () => (recyclable ? recycleBody(draft, timezone) : undefined),
    /** Puts the server's `recycle.*` issues on their fields; returns the others. */
    refusedBy(issues: readonly ProblemIssue[]): { onFields: boolean; rest: ProblemIssue[] } {
      const { errors: found, rest } = recycleIssues(issues);
      setRefused(found);
      return { onFields: Object.keys(found).length > 0, rest };
    },
  };
}
