'use server';

import { revalidatePath } from 'next/cache';
import { getContext } from '#server/context.ts';
import { boundWorkspace } from '#server/workspaces/membership.ts';
import { setCurrentWorkspace } from '#server/workspaces/repository.ts';
import { requireUser, sessionActsIn } from './session.ts';

/**
 * The navigation's workspace switcher (docs/workspaces.md#switching): the same rule as
 * `POST /api/v1/workspaces/{id}/switch`, a member's workspace only; anything else changes nothing.
 */
export async function switchWorkspaceAction(form: FormData): Promise<void> {
  const user = await requireUser();
  const workspaceId = form.get('workspaceId');
  if (typeof workspaceId !== 'string') return;
  const ctx = await getContext();
  if (!(await boundWorkspace(ctx, user.id, workspaceId))) return;
  await setCurrentWorkspace(ctx, user.id, workspaceId);
  await sessionActsIn(workspaceId);
  revalidatePath('/', 'layout');
}
