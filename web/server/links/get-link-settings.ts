import type { AppContext } from '#server/context.ts';
import { findLinkSettings } from './repository.ts';
import type { LinkSettingsView } from './schema.ts';
import { toLinkSettingsView } from './view.ts';

/** `GET /api/v1/workspaces/{id}/links`. */
export async function getLinkSettings(ctx: AppContext, workspaceId: string): Promise<LinkSettingsView> {
  return toLinkSettingsView(await findLinkSettings(ctx, workspaceId));
}
