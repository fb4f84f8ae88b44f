import { apiSecurityHeaders, outsideProxy, refusedOutsideProxy } from '#server/http/outside-proxy.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { mediaRoutes } from '#server/media/routes.ts';
import { uploadFromRequest } from '#server/media/service.ts';

export const runtime = 'nodejs';

/**
 * 201 for new bytes; 200 with the library's existing media when the workspace already has them.
 * Outside the proxy (web/proxy.ts), which would cut the body at 10 MiB.
 */
export const POST = outsideProxy(
  apiSecurityHeaders,
  route(mediaRoutes.uploadMedia, async ({ request, ctx, caller }) => {
    const { media, created } = await uploadFromRequest(ctx, caller.workspaceId, request);
    return json({ media }, created ? 201 : 200);
  }),
);

/** Other methods sent with a body also skip the proxy: the same 405 problem it answers. */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = refusedOutsideProxy(apiSecurityHeaders, '/api/v1/upload');
