import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { sessionWorkspace } from './membership.ts';
import { findMembership, membershipsOf } from './repository.ts';

import type { WorkspaceChoice } from './schema.ts';

/**
 * What the MCP consent and CLI authorization pages offer: every workspace the person belongs to,
 * their current one first chosen (docs/workspaces.md#tokens).
 */
export async function workspaceChoices(
  ctx: AppContext,
  userId: string,
  sessionWorkspaceId?: string,
): Promise<{ choices: WorkspaceChoice[]; currentId: string }> {
  const current = await sessionWorkspace(ctx, userId, sessionWorkspaceId);
  const all = await membershipsOf(ctx, userId);
  return {
    choices: all.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
    currentId: current.workspace.id,
  };
}

/** The workspace a consent form picked, which must be one of the person's (else 400); none: the current one. */
export async function pickedWorkspace(
  ctx: AppContext,
  user: { id: string; workspaceId?: string | undefined },
  picked: string | null,
): Promise<string> {
  const userId = user.id;
  if (!picked) return (await sessionWorkspace(ctx, userId, user.workspaceId)).workspace.id;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(picked);
  if (!uuid || !(await findMembership(ctx, userId, picked)))
    throw new ProblemError(problem('invalid_request', 'Pick one of your workspaces'));
  return picked;
}
