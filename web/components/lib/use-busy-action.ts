'use client';

import { useCallback, useState } from 'react';
import { describeError } from './api.ts';

/**
 * One action at a time for a set of buttons: `busy` names the running one (its button says so,
 * the others are disabled), and its failure becomes `error` in words a person can act on.
 */
export function useBusyAction<K extends string = string>() {
  const [busy, setBusy] = useState<K>();
  const [error, setError] = useState<string>();
  const run = useCallback(async (name: K, action: () => Promise<unknown>): Promise<void> => {
    setBusy(name);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(undefined);
    }
  }, []);
  return { busy, error, setError, run };
}
