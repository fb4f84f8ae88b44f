'use server';

import { ProblemError } from '@postwave/shared';
import { redirect } from 'next/navigation';
import { getContext } from '#server/context.ts';
import { acceptInvitation } from '#server/workspaces/accept-invitation.ts';
import type { FormState } from './schema.ts';
import { requireUser, sessionActsIn } from './session.ts';

/**
 * The invitation page's "Accept" button: the same operation and checks as
 * `POST /api/v1/invitations/accept`; success opens the workspace, a refusal is shown on the page.
 */
export async function acceptInvitationAction(_state: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const token = form.get('token');
  if (typeof token !== 'string') return { error: 'This invitation link is not valid.' };
  try {
    const workspace = await acceptInvitation(await getContext(), user.id, token);
    await sessionActsIn(workspace.id);
  } catch (error) {
    if (error instanceof ProblemError) return { error: error.problem.detail };
    throw error;
  }
  redirect('/compose');
}
