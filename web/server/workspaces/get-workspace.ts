import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { withLinks } from './links-in-view.ts';
import { findWorkspace } from './repository.ts';
import type { WorkspaceView } from './schema.ts';
import { toWorkspaceView } from './view.ts';

/** `GET /api/v1/workspaces/{id}` (the route's auth step checked membership of that workspace). */
export async function getWorkspace(ctx: AppContext, caller: Caller): Promise<WorkspaceView> {
  const workspace = await findWorkspace(ctx, caller.workspaceId);
  if (!workspace) throw notFound('workspace');
  return withLinks(ctx, caller, toWorkspaceView({ workspace, role: caller.role }));
}
