import type { z } from 'zod';
import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { mergeWorkspace } from './repository.ts';
import type { UpdateWorkspaceRequest, WorkspaceView } from './schema.ts';
import { toWorkspaceView } from './view.ts';

/**
 * `PATCH /api/v1/workspaces/{id}`: the name and the settings given; settings not given stay
 * (merged in one statement, so two edits of different settings both land).
 */
export async function updateWorkspace(
  ctx: AppContext,
  caller: Caller,
  change: z.infer<typeof UpdateWorkspaceRequest>,
): Promise<WorkspaceView> {
  const row = await mergeWorkspace(ctx, caller.workspaceId, { name: change.name, settings: change.settings });
  if (!row) throw notFound('workspace');
  return toWorkspaceView({ workspace: row, role: caller.role });
}
