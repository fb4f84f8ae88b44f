import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { membersOf } from './repository.ts';

/** `GET /api/v1/workspaces/{id}/members`: who belongs to the workspace, with their roles. */
export async function listMembers(ctx: AppContext, caller: Caller) {
  return { members: await membersOf(ctx, caller.workspaceId) };
}
