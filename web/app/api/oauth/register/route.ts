import { unsafeJsonReason } from '@postwave/shared';
import { registerClient } from '#server/oauth/clients.ts';
import { OAuthError } from '#server/oauth/errors.ts';
import { oauthRoute } from '#server/oauth/http.ts';
import { jsonWithCors, preflight } from '#server/oauth/metadata.ts';
import { readSmallText } from '#server/oauth/read.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** RFC 7591 dynamic client registration (public clients). */
export const POST = oauthRoute(async (request, ctx) => {
  let body: unknown;
  try {
    body = JSON.parse(await readSmallText(request, 64 * 1024));
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object');
  }
  const unsafe = unsafeJsonReason(body);
  if (unsafe) throw new OAuthError('invalid_client_metadata', unsafe);
  return jsonWithCors(await registerClient(ctx, body), 201);
});

export const OPTIONS = preflight;
