import { ProblemError, problem, runWithDeadline, UnsafeUrlError } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { AttemptLimiter, processWide } from '#server/security/attempt-limiter.ts';
import { parseLinkPreview } from './parse.ts';
import type { LinkPreview } from './schema.ts';

/** The page is read up to here: the card's tags are in the head, which is far smaller. */
export const maxPageBytes = 512 * 1024;
/** A preview is a nicety while typing: a slow page gets no card rather than a waiting composer. */
const deadlineMs = 5_000;
/** A card stays fresh this long; a refusal is remembered for less, so a fixed page shows soon. */
const cacheMs = 10 * 60 * 1000;
const refusalCacheMs = 60 * 1000;
const maxCached = 1_000;
/** Per user: the composer asks once per distinct URL while typing, far below this. */
const perUserLimit = 30;
const limitWindowMs = 60 * 1000;

type Outcome = { preview: LinkPreview } | { refusal: ProblemError };

const cache = processWide(
  'link-preview:cache',
  () => new Map<string, { at: number; ttl: number; outcome: Outcome }>(),
);
const requestsByUser = processWide(
  'link-preview:user',
  () => new AttemptLimiter(perUserLimit, limitWindowMs),
);

const refused = (code: string, message: string) =>
  new ProblemError(problem('validation_failed', message, { errors: [{ path: 'url', code, message }] }));

/**
 * The link card for a URL the user typed: fetched through the SSRF-safe fetch (private addresses
 * refused unless ALLOW_PRIVATE_HOSTS admits them), only HTML, at most `maxPageBytes` within
 * `deadlineMs`. Every refusal is a 422 problem with a code (`url_not_allowed`, `invalid_url`,
 * `host_not_found`, `fetch_failed`, `not_html`, `timeout`); cached briefly per user and URL.
 */
export async function linkPreview(
  ctx: AppContext,
  userId: string,
  rawUrl: string,
  now = Date.now(),
): Promise<LinkPreview> {
  const url = normalizeUrl(rawUrl);
  const key = `${userId}\n${url}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < hit.ttl) return unwrap(hit.outcome);
  if (!requestsByUser.tryAttempt(userId, now)) {
    throw new ProblemError(problem('rate_limited', 'Too many link previews. Wait a minute and try again.'), {
      'retry-after': String(limitWindowMs / 1000),
    });
  }
  let outcome: Outcome;
  try {
    outcome = { preview: await fetchPreview(ctx, url) };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    outcome = { refusal: error };
  }
  remember(key, { at: now, ttl: 'preview' in outcome ? cacheMs : refusalCacheMs, outcome });
  return unwrap(outcome);
}

function unwrap(outcome: Outcome): LinkPreview {
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.preview;
}

function remember(key: string, entry: { at: number; ttl: number; outcome: Outcome }) {
  cache.delete(key);
  cache.set(key, entry);
  // Oldest first: Map keeps insertion order.
  while (cache.size > maxCached) cache.delete(cache.keys().next().value!);
}

function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refused('invalid_url', 'The URL is not valid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refused('invalid_url', 'Only http:// and https:// links have previews');
  url.hash = '';
  return url.href;
}

function fetchPreview(ctx: AppContext, url: string): Promise<LinkPreview> {
  return runWithDeadline(undefined, deadlineMs, (signal) => fetchPreviewWithin(ctx, url, signal));
}

async function fetchPreviewWithin(ctx: AppContext, url: string, signal: AbortSignal): Promise<LinkPreview> {
  try {
    const response = await ctx.userUrlFetch(url, {
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9' },
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw refused('fetch_failed', `The page answered ${response.status}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(type)) {
      await response.body?.cancel().catch(() => {});
      throw refused('not_html', 'The link is not an HTML page');
    }
    const html = await readHead(response, maxPageBytes);
    return parseLinkPreview(html, response.url || url);
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    if (error instanceof UnsafeUrlError) throw refused(error.code, error.message);
    if (signal.aborted) throw refused('timeout', 'The page did not answer in time');
    throw refused('fetch_failed', 'The page could not be read');
  }
}

/** Up to `limit` bytes of the page, ending early after `</head>`; the rest is never downloaded. */
async function readHead(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  try {
    while (read < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value.subarray(0, limit - read);
      read += chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
      if (/<\/head\s*>|<body[\s>]/i.test(text.slice(-chunk.length - 16))) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}
