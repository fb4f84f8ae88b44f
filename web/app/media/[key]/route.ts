import { Readable } from 'node:stream';
import { mediaSecurityHeaders, problem, serveMedia, unsatisfiableRange } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { outsideProxy, refusedOutsideProxy } from '#server/http/outside-proxy.ts';
import { json, problemResponse } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { mediaRoutes } from '#server/media/routes.ts';
import { receiveUpload } from '#server/media/service.ts';

export const runtime = 'nodejs';

async function serve(request: Request, key: string, method: 'GET' | 'HEAD', ctx: AppContext) {
  const result = await serveMedia({
    storage: ctx.storage,
    key,
    method,
    range: request.headers.get('range') ?? undefined,
    ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
    ifModifiedSince: request.headers.get('if-modified-since') ?? undefined,
  });
  if (result.status === 404) return problemResponse(problem('not_found', 'No such media'), result.headers);
  if (result.status === 416) return problemResponse(unsatisfiableRange(), result.headers);
  const body = result.body ? (Readable.toWeb(result.body) as ReadableStream) : null;
  return new Response(body, { status: result.status, headers: result.headers });
}

export const GET = route(mediaRoutes.getMedia, ({ request, ctx, params }) =>
  serve(request, params.key, 'GET', ctx),
);
export const HEAD = route(mediaRoutes.headMedia, ({ request, ctx, params }) =>
  serve(request, params.key, 'HEAD', ctx),
);

/**
 * The self-signed upload URL from presign (local storage): the signature is the authorisation.
 * Signed PUTs are outside the proxy (web/proxy.ts), which would cut the body at 10 MiB.
 */
export const PUT = outsideProxy(
  mediaSecurityHeaders(undefined),
  route(mediaRoutes.putSignedUpload, async ({ request, ctx, params }) =>
    json({ media: await receiveUpload(ctx, params.key, request) }, 201),
  ),
);

/** Other methods sent with a signature skip the proxy too: the same 405 problem it answers. */
export const { POST, PATCH, DELETE, OPTIONS } = refusedOutsideProxy(
  mediaSecurityHeaders(undefined),
  '/media/[key]',
);
