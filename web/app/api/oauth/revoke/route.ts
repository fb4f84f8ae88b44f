import { oauthRoute, readForm } from '#server/oauth/http.ts';
import { corsHeaders, preflight } from '#server/oauth/metadata.ts';
import { revokeToken } from '#server/oauth/revoke-token.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** RFC 7009: 200 whether or not the token was known. */
export const POST = oauthRoute(async (request, ctx) => {
  await revokeToken(ctx, await readForm(request));
  return new Response(null, { status: 200, headers: { ...corsHeaders, 'cache-control': 'no-store' } });
});

export const OPTIONS = preflight;
