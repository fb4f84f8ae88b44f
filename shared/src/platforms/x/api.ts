import type { PlatformError } from '../../errors.ts';
import { platformFetch, type RequestOptions, readJson } from '../../http/fetch.ts';
import { sleep } from '../../publish/retry.ts';
import { xError } from './errors.ts';
import type { XAccessToken } from './token.ts';

export interface XRequest extends RequestOptions {
  /** Names the request in error messages ("the post", "the media upload"). */
  what: string;
  /** JSON body; sets the content type. Other bodies pass through `body` and must be reusable. */
  json?: unknown;
}

/**
 * One X API v2 call with the user's bearer token. A 401 refreshes the token once (when the
 * account can refresh) and tries again; a 429 whose `x-rate-limit-reset` falls within
 * `maxRateLimitWaitMs` is waited out and tried again, so a chunked upload does not start over.
 * Any other error answer is thrown classified.
 */
export async function xFetch<T>(
  token: XAccessToken,
  url: string | URL,
  request: XRequest,
  maxRateLimitWaitMs: number,
): Promise<{ data: T; response: Response }> {
  const { what, json, headers, ...init } = request;
  const send = async () =>
    platformFetch(url, {
      ...init,
      headers: {
        ...(headers as Record<string, string> | undefined),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${await token.get()}`,
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  let refreshed = false;
  for (let waits = 0; ; ) {
    const response = await send();
    if (response.ok) return { data: (await readJson(response)) as T, response };
    const body = await readJson(response);
    const error: PlatformError = xError(response.status, body, response.headers, what);
    if (response.status === 401 && !refreshed && !token.fresh && token.canRefresh) {
      refreshed = true;
      await token.refresh();
      continue;
    }
    if (
      response.status === 429 &&
      waits < 2 &&
      error.retryAfterMs !== undefined &&
      error.retryAfterMs <= maxRateLimitWaitMs
    ) {
      waits++;
      // Half a second past the reset: X's clock and ours differ by a little.
      await sleep(error.retryAfterMs + 500, init.signal).catch(() => {
        throw error;
      });
      continue;
    }
    throw error;
  }
}

/** Reads a failed answer's body and classifies it. */
export async function xFailure(response: Response, what: string): Promise<PlatformError> {
  return xError(response.status, await readJson(response), response.headers, what);
}
