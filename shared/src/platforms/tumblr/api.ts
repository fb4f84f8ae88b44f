import { platformFetch, readJson } from '../../http/fetch.ts';
import { sleep } from '../../publish/retry.ts';
import type { RefreshingToken, TokenGrant } from '../refreshing-token.ts';
import { requestTokenGrant } from '../token-request.ts';
import { tumblrError, tumblrTokenError } from './errors.ts';
import type { TumblrCredentials } from './options.ts';

export interface TumblrClient {
  clientId: string;
  clientSecret: string;
}

/** `POST {TUMBLR_API_URL}/v2/oauth2/token` (form, client id and secret in the form as Tumblr documents). */
export async function requestTumblrTokens(
  apiUrl: string,
  client: TumblrClient,
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<TokenGrant> {
  const { grant } = await requestTokenGrant({
    url: `${apiUrl}/v2/oauth2/token`,
    platform: 'Tumblr',
    form: { ...form, client_id: client.clientId, client_secret: client.clientSecret },
    tokenError: tumblrTokenError,
    signal,
  });
  return grant;
}

export interface TumblrRequest {
  method: 'GET' | 'POST';
  /** Names the request in error messages. */
  what: string;
  json?: unknown;
  /** A multipart body (NPF with media); rebuilt for a retry, so a function. */
  multipart?: () => Promise<{ body: Blob; contentType: string }>;
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
}

/** A 429 whose reset is this close is waited out inside the call; a later one fails retryable. */
const maxRateLimitWaitMs = 30_000;

/**
 * One API v2 call with the bearer token; answers the envelope's `response`. A 401 refreshes the
 * token once (when the account can) and tries again; a short 429 is waited out once.
 */
export async function tumblrFetch<T>(
  token: RefreshingToken<TumblrCredentials>,
  url: string,
  request: TumblrRequest,
): Promise<T> {
  let refreshed = false;
  let waited = false;
  for (;;) {
    const multipart = request.multipart ? await request.multipart() : undefined;
    const contentType =
      multipart?.contentType ?? (request.json === undefined ? undefined : 'application/json');
    const response = await platformFetch(url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${await token.get()}`,
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(request.json !== undefined ? { body: JSON.stringify(request.json) } : {}),
      ...(multipart ? { body: multipart.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
    });
    const body = await readJson(response);
    if (response.ok) {
      const envelope = (body ?? {}) as { response?: unknown };
      return envelope.response as T;
    }
    const error = tumblrError(response.status, body, response.headers, request.what);
    if (response.status === 401 && !refreshed && !token.fresh && token.canRefresh) {
      refreshed = true;
      await token.refresh();
      continue;
    }
    if (response.status === 429 && !waited && (error.retryAfterMs ?? Infinity) <= maxRateLimitWaitMs) {
      waited = true;
      await sleep(error.retryAfterMs!, request.signal).catch(() => {
        throw error;
      });
      continue;
    }
    throw error;
  }
}
