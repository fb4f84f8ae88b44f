import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { getWorkspace } from './get-workspace.ts';
import { setCurrentWorkspace } from './repository.ts';
import type { WorkspaceView } from './schema.ts';

/**
 * `POST /api/v1/workspaces/{id}/switch`: the browser session's current workspace becomes this one
 * (a member's only; tokens stay in the workspace they are bound to). The session keeps it in its
 * cookie (the route re-issues it); the user's row keeps it too, as where new sessions start.
 */
export async function switchWorkspace(ctx: AppContext, caller: Caller): Promise<WorkspaceView> {
  await setCurrentWorkspace(ctx, caller.userId, caller.workspaceId);
  return getWorkspace(ctx, caller);
}
