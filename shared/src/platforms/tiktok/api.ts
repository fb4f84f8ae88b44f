import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { type TikTokEnvelope, tiktokError } from './errors.ts';

/**
 * One Content Posting API call: JSON in (`Content-Type: application/json; charset=UTF-8`, as
 * TikTok documents), the `{ data, error }` envelope out; an answer whose `error.code` is not "ok"
 * is thrown classified, whatever its HTTP status.
 */
export async function tiktokCall<T>(
  apiUrl: string,
  request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string>;
    body?: unknown;
    accessToken: string;
    what: string;
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  const url = new URL(`${apiUrl}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const response = await platformFetch(url, {
    method: request.method,
    headers: {
      authorization: `Bearer ${request.accessToken}`,
      ...(request.method === 'POST' ? { 'content-type': 'application/json; charset=UTF-8' } : {}),
    },
    ...(request.method === 'POST' ? { body: JSON.stringify(request.body ?? {}) } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const answer = (await readJson(response, undefined, quotePostIds)) as TikTokEnvelope<T> | undefined;
  const code = answer?.error?.code;
  if (!response.ok || (code !== undefined && code !== 'ok')) {
    throw tiktokError(response.status, answer, response.headers, request.what);
  }
  if (!answer?.data)
    throw new PlatformError('platform_unavailable', `TikTok answered ${request.what} without data`);
  return answer.data;
}

/**
 * TikTok writes post ids (`publicaly_available_post_id`) as JSON numbers of 19 digits, more than a
 * double holds exactly: they are quoted before parsing so the id and its URL stay right.
 */
export function quotePostIds(text: string): string {
  return text.replace(
    /("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/g,
    (_all, head: string, items: string) => `${head}${items.replace(/(^|,)\s*(-?\d+)\s*(?=,|$)/g, '$1"$2"')}]`,
  );
}
