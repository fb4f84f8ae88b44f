'use client';

import type { OptionChoice } from '@postwave/shared/platforms/manifest';
import { useEffect, useState } from 'react';
import { api, describeError, hintOf } from '#components/lib/api.ts';

export type ChoicesState =
  | { status: 'loading' }
  | { status: 'ready'; choices: OptionChoice[] }
  /** The field depends on another that has no value yet (a board's sections before a board). */
  | { status: 'waiting' }
  /** `hint`: what the person can do, when the platform refused or failed (reconnect, wait). */
  | { status: 'failed'; message: string; hint?: string | undefined };

/** A change of the field it depends on settles this long before choices are asked for (typing). */
const settleMs = 250;

/**
 * The choices the platform offers one account for an option (`choicesFrom`), from
 * `GET /api/v1/accounts/{id}/options/{field}`: loaded when the account's panel shows and again
 * whenever the `dependsOn` field's value changes.
 */
export function useOptionChoices(
  accountId: string,
  field: string,
  depends: { name: string; value: string } | undefined,
): { state: ChoicesState; retry: () => void } {
  const [state, setState] = useState<ChoicesState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const dependsName = depends?.name;
  const dependsValue = depends?.value ?? '';
  // `attempt` is among the dependencies: a retry asks again.
  useEffect(() => {
    if (dependsName && !dependsValue) {
      setState({ status: 'waiting' });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    const query = dependsName ? `?${new URLSearchParams({ [dependsName]: dependsValue })}` : '';
    const path = `/api/v1/accounts/${encodeURIComponent(accountId)}/options/${encodeURIComponent(field)}${query}`;
    const timer = setTimeout(
      () => {
        api<{ choices: OptionChoice[] }>('GET', path)
          .then((answer) => {
            if (live) setState({ status: 'ready', choices: answer.choices });
          })
          .catch((error: unknown) => {
            if (live) setState({ status: 'failed', message: describeError(error), hint: hintOf(error) });
          });
      },
      attempt === 0 && !dependsName ? 0 : settleMs,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [accountId, field, dependsName, dependsValue, attempt]);
  return { state, retry: () => setAttempt((n) => n + 1) };
}
