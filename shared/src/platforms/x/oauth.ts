import { requestTokenGrant } from '../token-request.ts';
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
  const headers: Record<string, string> = {};
  const body: Record<string, string> = { ...form };
  if (client.clientSecret) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;
  } else {
    body.client_id = client.clientId;
  }
  const { grant, answer } = await requestTokenGrant({
    url: `${apiUrl}/2/oauth2/token`,
    platform: 'X',
    form: body,
    headers,
    tokenError: xTokenError,
    signal,
  });
  return {
    accessToken: grant.accessToken,
    expiresAt: new Date(Date.now() + (grant.expiresIn ?? 7200) * 1000).toISOString(),
    ...(grant.refreshToken ? { refreshToken: grant.refreshToken } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
  };
}
