'use client';

import { type FormEvent, startTransition, useActionState } from 'react';
import type { FormAction, FormState } from '#server/ui/schema.ts';

/**
 * `useActionState` for a server-action form that keeps what was typed. React resets a form whose
 * `action` prop ran (every field back to its default) whatever the server answered, so a short
 * password or a taken e-mail emptied the whole sign-up form (issue 30). With JavaScript the form is
 * sent from `onSubmit` instead, which React does not reset; without JavaScript `action` still posts
 * it natively (progressive enhancement).
 *
 *   const { state, pending, form } = useKeptForm(signIn);
 *   <form {...form}>…</form>
 */
export function useKeptForm(serverAction: FormAction, initial: FormState = {}) {
  const [state, action, pending] = useActionState<FormState, FormData>(serverAction, initial);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // One at a time: the submit button is only aria-disabled while pending (it keeps the focus), so
    // Enter in a field could send the form again.
    if (pending) return;
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  };
  return { state, pending, form: { action, onSubmit } };
}
