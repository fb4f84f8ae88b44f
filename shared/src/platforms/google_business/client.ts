import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import { googleBusinessError } from './errors.ts';

/**
 * A Business Profile API call with the bearer token: a 401 refreshes the token once; a refused
 * refresh (`invalid_grant`: revoked, or the password changed) is `needs_reconnect`.
 */
export async function googleBusinessCall<T>(
  token: GoogleAccessToken,
  url: string | URL,
  init: { method?: string; json?: unknown; signal?: AbortSignal },
  what: string,
): Promise<T> {
  const send = async () =>
    platformFetch(url, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: {
        authorization: `Bearer ${await reworded(() => token.get())}`,
        accept: 'application/json',
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      signal: init.signal,
    });
  let response = await send();
  if (response.status === 401 && !token.fresh) {
    await response.body?.cancel();
    await reworded(() => token.refresh());
    response = await send();
  }
  const body = await readJson(response);
  if (!response.ok) throw googleBusinessError(response.status, body, response.headers, what);
  return body as T;
}

/** The shared Google token code speaks of YouTube; these connections are Business Profile ones. */
async function reworded<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'needs_reconnect')
      throw new PlatformError(
        'needs_reconnect',
        'Google no longer accepts this Business Profile connection (revoked or expired); reconnect',
        { status: error.status, retryable: false },
      );
    throw error;
  }
}
