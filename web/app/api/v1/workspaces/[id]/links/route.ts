import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { getLinkSettings } from '#server/links/get-link-settings.ts';
import { linksRoutes } from '#server/links/routes.ts';
import { UpdateLinkSettingsRequest } from '#server/links/schema.ts';
import { updateLinkSettings } from '#server/links/update-link-settings.ts';

export const runtime = 'nodejs';

export const GET = route(linksRoutes.getLinkSettings, async ({ ctx, caller }) =>
  json(await getLinkSettings(ctx, caller.workspaceId)),
);

export const PUT = route(linksRoutes.updateLinkSettings, async ({ request, ctx, caller }) =>
  json(await updateLinkSettings(ctx, caller.workspaceId, await readBody(request, UpdateLinkSettingsRequest))),
);
