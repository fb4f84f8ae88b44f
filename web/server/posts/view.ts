import type { StoredTargetResult } from '@postwave/shared';
import { withHint } from '@postwave/shared/error-hints';
import type { AppContext } from '#server/context.ts';
import { readAll } from '#server/db/access.ts';
import type { StoredPart, StoredStep } from '#server/db/schema.ts';
import { linksOfPosts, type TargetLinkRow } from '#server/links/repository.ts';
import { type TargetLinksEntry, targetLinksView } from '#server/links/view.ts';
import type { TargetStaging } from '#server/staging/schema.ts';
import { stagingByPost } from '#server/staging/view.ts';
import type { PostRow } from './repository.ts';
import type { PostView } from './schema.ts';
import { type TargetView, targetsOf } from './targets-repository.ts';

/** A stored post and its targets as the Post resource shows them (one result per finished target). */
export function toPostView(
  row: PostRow,
  targets: TargetView[],
  staging: TargetStaging[] = [],
  links: readonly TargetLinkRow[] = [],
): PostView {
  const byAccount = new Map(targets.map((t) => [t.accountId, t]));
  const tracked = targetLinksView(links);
  const results: StoredTargetResult[] = [];
  for (const accountId of new Set([...row.accountIds, ...byAccount.keys()])) {
    const t = byAccount.get(accountId);
    if (!t || t.status === 'publishing') continue;
    results.push({
      accountId,
      platform: t.platform,
      status: t.status,
      ...(t.platformPostId ? { platformPostId: t.platformPostId } : {}),
      ...(t.url ? { url: t.url } : {}),
      ...(t.error ? { error: withHint(t.error) } : {}),
      ...(t.details ? { details: t.details } : {}),
      ...((t.parts || t.status === 'unknown') && row.thread.length > 0
        ? { parts: viewParts(t.parts ?? [], t.status, row.thread.length + 1) }
        : {}),
      ...(t.firstComment
        ? { firstComment: publicStep(t.firstComment) }
        : t.status === 'unknown' && asksFirstComment(row, accountId)
          ? { firstComment: { status: interruptedComment(t.parts, row.thread.length + 1) } }
          : {}),
      ...linksOf(tracked.get(accountId)),
    });
  }
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    accountIds: row.accountIds,
    media: row.media,
    accountOptions: row.accountOptions,
    overrides: row.overrides,
    thread: row.thread,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    postedAt: row.postedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    results,
    staging,
    risk: row.status === 'scheduled' ? (row.risk ?? null) : null,
    recycle: row.recycle ?? null,
    recycledFrom: row.recycledFrom ?? null,
    recycleIndex: row.recycleIndex ?? null,
    approval: row.approval ?? null,
  };
}

function linksOf(entry: TargetLinksEntry | undefined) {
  if (!entry) return {};
  return {
    ...(entry.warnings.length ? { warnings: entry.warnings } : {}),
    ...(entry.links.length ? { links: entry.links } : {}),
  };
}

/** Interrupted before the comment's outcome was recorded: it was in flight once every part had posted. */
function interruptedComment(parts: StoredPart[] | null, total: number): 'unknown' | 'pending' {
  const posted = (parts ?? []).filter((p) => p.status === 'posted').length;
  return posted >= total ? 'unknown' : 'pending';
}

function asksFirstComment(row: PostRow, accountId: string): boolean {
  const comment = row.accountOptions[accountId]?.firstComment;
  return typeof comment === 'string' && comment.trim() !== '';
}

/** A stored step without its reply reference (the server's to keep), its error with a hint. */
function publicStep<T extends StoredStep>({ replyRef: _, ...step }: T): Omit<T, 'replyRef'> {
  return step.error ? { ...step, error: withHint(step.error) } : step;
}

/**
 * Every part of a target's thread. A target interrupted mid-thread (`unknown`) has stored only the
 * parts it posted: the next one is the part whose outcome is unknown, the rest were never sent.
 */
function viewParts(stored: StoredPart[], status: TargetView['status'], total: number) {
  const parts = stored.map(publicStep);
  if (status === 'unknown') {
    for (let index = parts.length; index < total; index++) {
      parts.push({ index, status: index === stored.length ? 'unknown' : 'pending' });
    }
  }
  return parts;
}

/** A post as the API answers it, read with its targets and staging. */
export async function loadPostView(ctx: AppContext, row: PostRow): Promise<PostView> {
  const [targets, staging, links] = await readAll(ctx, [
    () => targetsOf(ctx, row.id),
    () => stagingByPost(ctx, [row.id]),
    () => linksOfPosts(ctx, [row.id]),
  ] as const);
  return toPostView(row, targets, staging.get(row.id), links);
}
