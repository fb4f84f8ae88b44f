import { type Dispatch, useEffect } from 'react';
import type { ProblemIssue } from '#components/lib/api.ts';
import type { ComposerAction, ValidationResult } from './composer-state.ts';

/** Checks the post against every selected account, debounced, while the user edits it. */
export function useLiveValidation(
  bodyKey: string,
  selectedCount: number,
  dispatch: Dispatch<ComposerAction>,
) {
  useEffect(() => {
    if (selectedCount === 0) {
      dispatch({ type: 'validationCleared' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      dispatch({ type: 'validationStarted' });
      try {
        const response = await fetch('/api/v1/validation', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bodyKey,
          signal: controller.signal,
        });
        const json = (await response.json()) as {
          results?: ValidationResult[];
          detail?: string;
          errors?: ProblemIssue[];
        };
        // `errors` on a 200: the request as a whole breaks a rule (a text over 100,000 characters,
        // an override for an account not selected); no account was checked, so say why instead.
        if (response.ok && json.errors?.length)
          dispatch({ type: 'validationFailed', issue: json.errors.map((e) => e.message).join(' ') });
        else if (response.ok && json.results) dispatch({ type: 'validated', results: json.results });
        else dispatch({ type: 'validationFailed', issue: json.detail ?? 'The post could not be checked.' });
      } catch (e) {
        if ((e as Error).name !== 'AbortError')
          dispatch({ type: 'validationFailed', issue: 'The post could not be checked right now.' });
      } finally {
        if (!controller.signal.aborted) dispatch({ type: 'validationSettled' });
      }
    }, 450);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [bodyKey, selectedCount, dispatch]);
}
