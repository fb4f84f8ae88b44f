import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { membershipsOf } from './repository.ts';

/** `GET /api/v1/workspaces`: the caller's workspaces with their role in each, and the current one. */
export async function listWorkspaces(ctx: AppContext, caller: Caller) {
  const memberships = await membershipsOf(ctx, caller.userId);
  return {
    workspaces: memberships.map(({ workspace, role }) => ({
      id: workspace.id,
      name: workspace.name,
      role,
      createdAt: workspace.createdAt.toISOString(),
    })),
    currentWorkspaceId: caller.workspaceId,
  };
}
