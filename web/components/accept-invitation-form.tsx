'use client';

import { useActionState } from 'react';
import type { FormState } from '../server/ui/schema.ts';
import { ActionButton } from './action-button.tsx';

/** The invitation page's accept button; a refusal (another address, not verified) is announced. */
export function AcceptInvitationForm({
  token,
  accept,
}: {
  token: string;
  accept: (state: FormState, form: FormData) => Promise<FormState>;
}) {
  const [state, action, pending] = useActionState<FormState, FormData>(accept, {});
  return (
    <form action={action} className="stack">
      {state.error && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <input type="hidden" name="token" value={token} />
      {/* aria-disabled while pending, not disabled: the pressed button keeps the focus. */}
      <ActionButton type="submit" primary blocked={pending} aria-busy={pending || undefined}>
        {pending ? 'Accepting…' : 'Accept the invitation'}
      </ActionButton>
    </form>
  );
}
