import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { linkPreviewRoutes } from '#server/link-preview/routes.ts';
import { LinkPreviewRequest } from '#server/link-preview/schema.ts';
import { linkPreview } from '#server/link-preview/service.ts';

export const runtime = 'nodejs';

export const POST = route(linkPreviewRoutes.linkPreview, async ({ request, ctx, caller }) => {
  const { url } = await readBody(request, LinkPreviewRequest);
  return json(await linkPreview(ctx, caller.userId, url));
});
