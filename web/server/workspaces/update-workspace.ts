import type { z } from 'zod';
import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { updateLinkSettings } from '#server/links/update-link-settings.ts';
import { withLinks } from './links-in-view.ts';
import { mergeWorkspace } from './repository.ts';
import type { UpdateWorkspaceRequest, WorkspaceView } from './schema.ts';
import { toWorkspaceView } from './view.ts';

/**
 * `PATCH /api/v1/workspaces/{id}`: the name and the settings given; settings not given stay
 * (merged in one statement, so two edits of different settings both land). `utm` and `shortener`
 * are the workspace's tracked links, saved first as `PUT …/links` saves them (a refusal there
 * changes nothing here).
 */
export async function updateWorkspace(
  ctx: AppContext,
  caller: Caller,
  change: z.infer<typeof UpdateWorkspaceRequest>,
): Promise<WorkspaceView> {
  const { utm, shortener, ...settings } = change.settings ?? {};
  if (utm !== undefined || shortener !== undefined)
    await updateLinkSettings(ctx, caller.workspaceId, {
      ...(utm !== undefined ? { utm } : {}),
      ...(shortener !== undefined ? { shortener } : {}),
    });
  const row = await mergeWorkspace(ctx, caller.workspaceId, {
    name: change.name,
    settings: change.settings ? settings : undefined,
  });
  if (!row) throw notFound('workspace');
  return withLinks(ctx, caller, toWorkspaceView({ workspace: row, role: caller.role }));
}
