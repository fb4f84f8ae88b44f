import type { PlatformError } from '../../errors.ts';
import { platformFetch, type RequestOptions, readJson } from '../../http/fetch.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import { googleError, googleReason } from './errors.ts';

/**
 * A YouTube API request with the bearer token. A 401 is answered by refreshing the token and
 * trying once more; a second refusal, or one that no token can cure (no channel), is thrown
 * classified. Bodies must be reusable (strings, buffers) for that second try.
 */
export async function googleFetch(
  token: GoogleAccessToken,
  url: string | URL,
  init: RequestOptions,
  what: string,
): Promise<Response> {
  const send = async () =>
    platformFetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${await token.get()}` },
    });
  const first = await send();
  if (first.status !== 401) return first;
  const body = await readJson(first);
  if (token.fresh || googleReason(body) === 'youtubeSignupRequired')
    throw googleError(401, body, first.headers, what);
  await token.refresh();
  const second = await send();
  if (second.status !== 401) return second;
  throw googleError(401, await readJson(second), second.headers, what);
}

/** Reads a failed answer's body and classifies it. */
export async function failure(response: Response, what: string): Promise<PlatformError> {
  return googleError(response.status, await readJson(response), response.headers, what);
}
