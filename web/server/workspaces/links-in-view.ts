import type { Caller } from '#server/auth/caller.ts';
import { can } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import { getLinkSettings } from '#server/links/get-link-settings.ts';
import type { WorkspaceView } from './schema.ts';

/**
 * A workspace's own answer (`GET`/`PATCH /api/v1/workspaces/{id}`) with its tracked links in
 * `settings` for those who may change them (owners and admins), as `/links` answers them: the
 * contract has links "per workspace", and a settings reader finds them where it looks first.
 */
export async function withLinks(
  ctx: AppContext,
  caller: Caller,
  view: WorkspaceView,
): Promise<WorkspaceView> {
  if (!can(caller.role, 'workspace.manage')) return view;
  const { utm, shortener } = await getLinkSettings(ctx, view.id);
  return { ...view, settings: { ...view.settings, utm, shortener } };
}
