import { platformFetch, readJson } from '../../http/fetch.ts';
import { threadsApiVersion } from './config.ts';
import { threadsError } from './errors.ts';

/**
 * One Threads Graph API call. Parameters travel in the query string with `access_token`, as
 * the Threads documentation shows every call; error answers are thrown classified.
 */
export async function threadsCall<T>(
  apiUrl: string,
  request: {
    method: 'GET' | 'POST';
    /** Path after the version, e.g. `/123/threads`; or a full path from the host when `versioned` is false. */
    path: string;
    params?: Record<string, string | undefined>;
    accessToken: string;
    what: string;
    signal?: AbortSignal | undefined;
    versioned?: boolean;
  },
): Promise<T> {
  const prefix = request.versioned === false ? '' : `/${threadsApiVersion}`;
  const url = new URL(`${apiUrl}${prefix}${request.path}`);
  for (const [name, value] of Object.entries(request.params ?? {})) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  url.searchParams.set('access_token', request.accessToken);
  // POSTs repeat the parameters as a form body and the token as a bearer header: the Graph API
  // reads either, and clients (and proxies in front of it) that expect one or the other agree.
  const body = request.method === 'POST' ? new URLSearchParams(url.searchParams).toString() : undefined;
  const response = await platformFetch(url, {
    method: request.method,
    headers: {
      authorization: `Bearer ${request.accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(body === undefined ? {} : { body }),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const answer = await readJson(response);
  if (!response.ok) throw threadsError(response.status, answer, response.headers, request.what);
  return answer as T;
}
