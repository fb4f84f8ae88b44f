import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { xTokenError } from './errors.ts';

export interface XTokenAnswer {
  accessToken: string;
  /** X rotates refresh tokens: every grant returns a new one and the old one stops working. */
  refreshToken?: string;
  /** ISO 8601. */
  expiresAt: string;
  scope?: string;
}

export interface XClient {
  clientId: string;
  clientSecret?: string | undefined;
}

/**
 * Posts a grant to `{X_API_URL}/2/oauth2/token`. Confidential clients authenticate with HTTP
 * Basic; public clients send `client_id` in the form, as X documents.
 */
export async function requestXTokens(
  apiUrl: string,
  client: XClient,
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<XTokenAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const body: Record<string, string> = { ...form };
  if (client.clientSecret) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;
  } else {
    body.client_id = client.clientId;
  }
  const response = await platformFetch(`${apiUrl}/2/oauth2/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(body).toString(),
    ...(signal ? { signal } : {}),
  });
  const answer = ((await readJson(response)) ?? {}) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
    scope?: unknown;
  };
  if (!response.ok) throw xTokenError(response.status, answer, response.headers);
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new PlatformError('platform_unavailable', 'X answered the token request without an access token');
  }
  const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 7200;
  return {
    accessToken: answer.access_token,
    expiresAt: new Date(Date.now() + lifetime * 1000).toISOString(),
    ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
  };
}
