import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { deleteWorkspace as deleteRow } from './repository.ts';

/**
 * `DELETE /api/v1/workspaces/{id}` (owners): every resource the workspace owns goes with it, its
 * members' tokens and MCP grants for it too. A member left without any workspace gets a new
 * personal one on their next request (membership.ts).
 */
export async function deleteWorkspace(ctx: AppContext, caller: Caller): Promise<void> {
  if (!(await deleteRow(ctx, caller.workspaceId))) throw notFound('workspace');
}
