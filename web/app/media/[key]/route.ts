import { Readable } from 'node:stream';
import { serveMedia } from '@postwave/shared';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { receiveUpload } from '#server/media/service.ts';

export const runtime = 'nodejs';

type Params = { key: string };

async function serve(
  request: Request,
  key: string,
  method: 'GET' | 'HEAD',
  ctx: Parameters<Parameters<typeof route>[0]>[1],
) {
  const result = await serveMedia({
    storage: ctx.storage,
    key,
    method,
    range: request.headers.get('range') ?? undefined,
    ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
    ifModifiedSince: request.headers.get('if-modified-since') ?? undefined,
  });
  const body = result.body ? (Readable.toWeb(result.body) as ReadableStream) : null;
  return new Response(body, { status: result.status, headers: result.headers });
}

export const GET = route<Params>((request, ctx, { key }) => serve(request, key, 'GET', ctx));
export const HEAD = route<Params>((request, ctx, { key }) => serve(request, key, 'HEAD', ctx));

/** The self-signed upload URL from presign (local storage): the signature is the authorisation. */
export const PUT = route<Params>(async (request, ctx, { key }) =>
  json({ media: await receiveUpload(ctx, key, request) }),
);
