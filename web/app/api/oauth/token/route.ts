import { OAuthError } from '#server/oauth/errors.ts';
import { exchangeAuthorizationCode } from '#server/oauth/exchange-code.ts';
import { oauthRoute, readForm } from '#server/oauth/http.ts';
import { jsonWithCors, preflight } from '#server/oauth/metadata.ts';
import { refreshTokens } from '#server/oauth/refresh-tokens.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = oauthRoute(async (request, ctx) => {
  const form = await readForm(request);
  if (form.has('client_secret') || request.headers.has('authorization'))
    throw new OAuthError('invalid_client', 'Clients are public here: send client_id and no secret', {
      status: 401,
    });
  const grant = form.get('grant_type');
  if (grant === 'authorization_code')
    return jsonWithCors(await exchangeAuthorizationCode(ctx, form), 200, { pragma: 'no-cache' });
  if (grant === 'refresh_token')
    return jsonWithCors(await refreshTokens(ctx, form), 200, { pragma: 'no-cache' });
  throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
});

export const OPTIONS = preflight;
