import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { boundWorkspace } from '#server/workspaces/membership.ts';
import type { Caller } from './caller.ts';

/**
 * The caller acting in the workspace a path names (`/api/v1/workspaces/{id}/…`), with their role
 * there. Not a member → 404, exactly like a workspace that does not exist; a bearer token acts only
 * in the workspace it is bound to (docs/workspaces.md#tokens).
 */
export async function inPathWorkspace(
  ctx: AppContext,
  caller: Caller,
  workspaceId: string | undefined,
): Promise<Caller> {
  if (!workspaceId) throw notFound('workspace');
  if (caller.via === 'token' && workspaceId !== caller.workspaceId) throw notFound('workspace');
  const membership = await boundWorkspace(ctx, caller.userId, workspaceId);
  if (!membership) throw notFound('workspace');
  return { ...caller, workspaceId, role: membership.role };
}
