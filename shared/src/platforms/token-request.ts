import { PlatformError } from '../errors.ts';
import { platformFetch, readJson } from '../http/fetch.ts';
import type { TokenGrant } from './refreshing-token.ts';

export interface TokenRequest {
  /** The token endpoint. */
  url: string;
  /** Names the platform in the error a reply without a token gives. */
  platform: string;
  /** The grant's form fields, client credentials included where the platform wants them there. */
  form: Record<string, string>;
  /** Extra headers (HTTP Basic client authentication). */
  headers?: Record<string, string>;
  /** The platform's reading of a refused grant. */
  tokenError: (status: number, body: unknown, headers: Headers) => PlatformError;
  signal?: AbortSignal | undefined;
}

/** A grant and the whole answer, for the fields some platforms add (X's `scope`). */
export interface TokenAnswer {
  grant: TokenGrant;
  answer: Record<string, unknown>;
}

/**
 * Posts an OAuth 2 grant as a form (RFC 6749 §4.1.3, §6), the way X, Tumblr and Twitch take it,
 * and reads the tokens out of the answer. A refusal is the platform's own error; a 2xx without an
 * access token is a platform fault, not a credential problem.
 */
export async function requestTokenGrant(request: TokenRequest): Promise<TokenAnswer> {
  const response = await platformFetch(request.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      ...request.headers,
    },
    body: new URLSearchParams(request.form).toString(),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const answer = ((await readJson(response)) ?? {}) as Record<string, unknown>;
  if (!response.ok) throw request.tokenError(response.status, answer, response.headers);
  if (typeof answer.access_token !== 'string' || answer.access_token === '')
    throw new PlatformError(
      'platform_unavailable',
      `${request.platform} answered the token request without an access token`,
    );
  return {
    answer,
    grant: {
      accessToken: answer.access_token,
      ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
      ...(typeof answer.expires_in === 'number' ? { expiresIn: answer.expires_in } : {}),
    },
  };
}
