'use client';

import { useActionState } from 'react';
import type { FormState } from '../server/ui/schema.ts';

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
      <button type="submit" className="btn btn-primary" disabled={pending}>
        Accept the invitation
      </button>
    </form>
  );
}
