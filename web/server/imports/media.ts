import { ProblemError, type ProblemIssue } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { StoredMedia } from '#server/db/schema.ts';
import { uploadMediaFromUrl } from '#server/media/from-url.ts';
import { ownedMedia, toStoredMedia } from '#server/media/service.ts';
import type { ImportMediaItem, ImportRowInput } from './parse.ts';
import { importedMediaByUrl, rememberImportedMedia } from './repository.ts';
import { maxMediaDownloads } from './schema.ts';

export type MediaOutcome = { media: StoredMedia } | { error: ProblemIssue };

/** What a download the import's time budget cut off, or never started, reports. */
export const budgetIssue = (budgetMs: number, what: string): ProblemIssue => ({
  code: 'time_budget_exceeded',
  message: `${what}: the import's time budget of ${budgetMs / 1000} s ran out. Media already fetched are kept; send the file again to continue`,
});
type MediaItem = ImportMediaItem;

const itemKey = (item: MediaItem) => ('key' in item ? `key:${item.key}` : `url:${item.url}`);

/**
 * Resolves every media item of an import once (rows often share an image): a key of the user's
 * library; one of our own public media URLs (an export read back) as its key; a URL an earlier
 * import already fetched; else the URL fetched through the SSRF-safe fetch into storage, with the
 * upload's size limit and type sniffing. Failures become row errors, never the import's failure:
 * a host that resets, trickles or sends less than it announced fails its URL only, and `budget`
 * (the import's time budget) ends every download still running or not started.
 */
export async function resolveImportMedia(
  ctx: AppContext,
  workspaceId: string,
  rows: ImportRowInput[],
  budget: AbortSignal,
): Promise<Map<string, MediaOutcome>> {
  const outcomes = new Map<string, MediaOutcome>();
  const items = new Map<string, MediaItem>();
  for (const row of rows) for (const item of rowMedia(row)) items.set(itemKey(item), item);
  if (items.size === 0) return outcomes;

  const ownPrefix = ctx.storage.publicUrl('');
  const keyOf = (item: MediaItem) =>
    'key' in item ? item.key : item.url.startsWith(ownPrefix) ? item.url.slice(ownPrefix.length) : undefined;
  const keys = [...items.values()].flatMap((item) => keyOf(item) ?? []);
  const owned = await ownedMedia(ctx, workspaceId, keys);
  const toFetch: string[] = [];
  for (const [id, item] of items) {
    const key = keyOf(item);
    const row = key === undefined ? undefined : owned.get(key);
    if (row) outcomes.set(id, { media: toStoredMedia(ctx, row) });
    else if ('key' in item)
      outcomes.set(id, { error: { code: 'media_not_found', message: `No media with key "${item.key}"` } });
    else toFetch.push(item.url);
  }
  const known = await importedMediaByUrl(ctx, workspaceId, toFetch);
  const unknown = toFetch.filter((url) => {
    const row = known.get(url);
    if (row) outcomes.set(`url:${url}`, { media: toStoredMedia(ctx, row) });
    return !row;
  });
  // One request downloads a bounded number of files; the rest can come in a later import.
  const fetching = unknown.slice(0, maxMediaDownloads);
  for (const url of unknown.slice(maxMediaDownloads)) {
    outcomes.set(`url:${url}`, {
      error: {
        code: 'too_many_media_urls',
        message: `An import downloads at most ${maxMediaDownloads} new media URLs; split the file`,
      },
    });
  }
  // A few downloads at a time: an import is one request, not a crawler.
  let next = 0;
  const worker = async () => {
    while (next < fetching.length && !budget.aborted) {
      const url = fetching[next++]!;
      outcomes.set(`url:${url}`, await fetchOne(ctx, workspaceId, url, budget));
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, fetching.length) }, worker));
  const budgetMs = ctx.config.imports.timeBudgetMs;
  for (const url of fetching.slice(next))
    outcomes.set(`url:${url}`, { error: budgetIssue(budgetMs, `${url.slice(0, 200)} was not fetched`) });
  return outcomes;
}

async function fetchOne(
  ctx: AppContext,
  workspaceId: string,
  url: string,
  budget: AbortSignal,
): Promise<MediaOutcome> {
  if (!/^https?:\/\//i.test(url))
    return { error: { code: 'invalid_url', message: `"${url.slice(0, 200)}" is not an http(s) URL` } };
  try {
    const stored = await uploadMediaFromUrl(ctx, workspaceId, { url }, budget);
    await rememberImportedMedia(ctx, workspaceId, url, stored.id);
    return { media: stored as StoredMedia };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    if (budget.aborted)
      return {
        error: budgetIssue(ctx.config.imports.timeBudgetMs, `${url.slice(0, 200)} was still downloading`),
      };
    const first = error.problem.errors?.[0];
    return { error: { code: first?.code ?? error.problem.code, message: error.problem.detail } };
  }
}

/** Every media item of a row: its media, its overrides' and its thread parts'. */
function rowMedia(row: ImportRowInput): MediaItem[] {
  return [
    ...row.media,
    ...Object.values(row.overrides).flatMap((o) => o.media ?? []),
    ...row.thread.flatMap((part) => part.media),
  ];
}

/** The stored file for an item, with the item's alt text (one file may carry different texts per post). */
export function mediaOutcomeFor(outcomes: Map<string, MediaOutcome>, item: MediaItem): MediaOutcome {
  const outcome = outcomes.get(itemKey(item)) ?? {
    error: { code: 'media_not_found', message: 'Media not resolved' },
  };
  if (!('media' in outcome)) return outcome;
  const { altText: _, ...media } = outcome.media;
  return { media: item.altText ? { ...media, altText: item.altText } : media };
}
