import { readTextCapped, runWithDeadline, UnsafeUrlError } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { FeedRow } from './repository.ts';

/** Feed documents over this size are refused. */
const maxFeedBytes = 5 * 1024 * 1024;

/** What a conditional GET of a feed found. */
export type Fetched =
  | { kind: 'not_modified' }
  | { kind: 'ok'; body: string; etag: string | null; lastModified: string | null }
  | { kind: 'failed'; error: string };

/** A conditional GET through the SSRF-safe fetch, body capped, fetch and read within 20 s. */
export function fetchFeed(ctx: AppContext, row: FeedRow): Promise<Fetched> {
  return runWithDeadline(undefined, 20_000, (signal) => fetchFeedWithin(ctx, row, signal));
}

async function fetchFeedWithin(ctx: AppContext, row: FeedRow, signal: AbortSignal): Promise<Fetched> {
  const headers: Record<string, string> = {
    accept:
      'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
  };
  if (row.etag) headers['if-none-match'] = row.etag;
  if (row.lastModified) headers['if-modified-since'] = row.lastModified;
  let response: Response;
  try {
    response = await ctx.userUrlFetch(row.url, { headers, signal });
  } catch (error) {
    if (error instanceof UnsafeUrlError) return { kind: 'failed', error: `${error.code}: ${error.message}` };
    if ((error as Error)?.name === 'TimeoutError')
      return { kind: 'failed', error: 'The feed did not answer in time' };
    return { kind: 'failed', error: `The feed could not be fetched: ${(error as Error).message}` };
  }
  if (response.status === 304) {
    await response.body?.cancel().catch(() => {});
    return { kind: 'not_modified' };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { kind: 'failed', error: `The feed answered ${response.status}` };
  }
  try {
    const body = await readTextCapped(response, maxFeedBytes);
    return {
      kind: 'ok',
      body,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
    };
  } catch (error) {
    return { kind: 'failed', error: `The feed could not be read: ${(error as Error).message}` };
  }
}
