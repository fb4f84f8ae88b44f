import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { pinterestError } from './errors.ts';

/** One Pinterest API v5 call with the user's bearer token; error answers are thrown classified. */
export async function pinterestCall<T>(
  apiUrl: string,
  request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string | undefined>;
    body?: unknown;
    accessToken: string;
    what: string;
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  const url = new URL(`${apiUrl}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  const response = await platformFetch(url, {
    method: request.method,
    headers: {
      authorization: `Bearer ${request.accessToken}`,
      accept: 'application/json',
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const answer = await readJson(response);
  if (!response.ok) throw pinterestError(response.status, answer, response.headers, request.what);
  if (answer === undefined || answer === null || typeof answer !== 'object') {
    throw new PlatformError('platform_unavailable', `Pinterest answered ${request.what} without a body`);
  }
  return answer as T;
}

/** Every page of a v5 list (`items`, `bookmark`), up to `maxPages`. */
export async function pinterestList<T>(
  apiUrl: string,
  request: { path: string; accessToken: string; what: string; signal?: AbortSignal | undefined },
  maxPages = 20,
): Promise<T[]> {
  const items: T[] = [];
  let bookmark: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await pinterestCall<{ items?: T[]; bookmark?: string | null }>(apiUrl, {
      method: 'GET',
      path: request.path,
      query: { page_size: '100', bookmark },
      accessToken: request.accessToken,
      what: request.what,
      signal: request.signal,
    });
    items.push(...(answer.items ?? []));
    if (!answer.bookmark) break;
    bookmark = answer.bookmark;
  }
  return items;
}
