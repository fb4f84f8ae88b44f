import { PlatformError } from '../errors.ts';
import { platformFetch, readJson } from '../http/fetch.ts';

/**
 * Meta's OAuth, shared by Facebook Login, Instagram Login and Threads: one consent URL shape and
 * one authorization-code exchange, differing only in hosts, permissions and how the exchange is
 * sent (Facebook: GET with query parameters; Instagram and Threads: a form POST with
 * `grant_type=authorization_code`).
 */

export interface MetaApp {
  appId: string | undefined;
  appSecret: string | undefined;
}

/** What Meta's token endpoints answer (Instagram Login wraps it in `data[0]`). */
export interface MetaTokenAnswer {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  user_id?: string | number;
  data?: { access_token?: string; user_id?: string | number }[];
}

/**
 * The consent URL: `client_id`, `redirect_uri`, `state`, `response_type=code`, and either the
 * comma-separated `scope` or, for Facebook Login for Business, the configuration's `config_id`.
 */
export function metaAuthorizeUrl(
  authorizeUrl: string,
  appId: string | undefined,
  input: { state: string; redirectUri: string },
  permissions: { scopes: readonly string[]; configId?: string | undefined },
): string {
  const url = new URL(authorizeUrl);
  url.searchParams.set('client_id', appId ?? '');
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  url.searchParams.set('response_type', 'code');
  if (permissions.configId) url.searchParams.set('config_id', permissions.configId);
  else url.searchParams.set('scope', permissions.scopes.join(','));
  return url.toString();
}

/**
 * Exchanges an authorization code for a (short-lived) token. `missing` names the env variables
 * when the app is not configured; `fail` classifies a refusal in the platform's own words.
 */
export async function exchangeMetaCode(
  tokenUrl: string,
  app: MetaApp,
  request: {
    code: string;
    redirectUri: string;
    signal: AbortSignal;
    method: 'GET' | 'POST';
    missing: string;
  },
  fail: (status: number, body: unknown, headers: Headers) => Error,
): Promise<MetaTokenAnswer> {
  if (!app.appId || !app.appSecret)
    throw new PlatformError('credentials_invalid', `${request.missing} are not set`);
  const params = new URLSearchParams({
    client_id: app.appId,
    client_secret: app.appSecret,
    ...(request.method === 'POST' ? { grant_type: 'authorization_code' } : {}),
    redirect_uri: request.redirectUri,
    // Instagram and Threads append "#_" to the code in the redirect; it is not part of the code.
    code: request.code.replace(/#_$/, ''),
  });
  const response =
    request.method === 'GET'
      ? await platformFetch(`${tokenUrl}?${params}`, { method: 'GET', signal: request.signal })
      : await platformFetch(tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: params.toString(),
          signal: request.signal,
        });
  const body = (await readJson(response)) as (MetaTokenAnswer & { error?: unknown }) | undefined;
  if (!response.ok || body?.error) throw fail(response.ok ? 400 : response.status, body, response.headers);
  return body ?? {};
}
