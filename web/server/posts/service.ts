import {
  type AccountOptions,
  assertOverrideKeys,
  type MediaReference,
  type NormalizedOverride,
  type NormalizedPost,
  type NormalizedThreadPart,
  ProblemError,
  parseOffsetDateTime,
  problem,
  type StoredTargetResult,
} from '@postwave/shared';
import { ownedAccountIds } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import type {
  PostStatus,
  posts,
  StoredMedia,
  StoredOverride,
  StoredPart,
  StoredStep,
  StoredThreadPart,
} from '#server/db/schema.ts';
import { LeaseKeeper } from '#server/dispatch/lease-keeper.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { isUuid } from '#server/http/ids.ts';
import { invalidStatus, specificProblem, validationFailed } from '#server/http/problems.ts';
import { notFound } from '#server/http/respond.ts';
import { assertAcceptingWork } from '#server/lifecycle/shutdown.ts';
import { ownedMedia, toStoredMedia } from '#server/media/service.ts';
import { scheduleInQueue } from '#server/queue/service.ts';
import { discardPlatforms, discardSoon } from '#server/staging/discard.ts';
import { deletePostQueueingDiscards } from '#server/staging/repository.ts';
import type { TargetStaging } from '#server/staging/schema.ts';
import { forgetStaging, stagingByPost } from '#server/staging/service.ts';
import { preparePost, publishLeasedPost, validationIssues } from './publishing.ts';
import {
  type Db,
  deleteDroppedTargets,
  editableStatuses,
  findPost,
  insertPost,
  inTransaction,
  listPostPage,
  type NewPostRow,
  type PostRow,
  postedAccountIds,
  renewPostLeases,
  resolveUnknownTargets,
  type TargetView,
  targetsOf,
  updatePostIfUnchanged,
} from './repository.ts';
import type { PostAction, PostPatch, PostView } from './schema.ts';

export function toPostView(row: PostRow, targets: TargetView[], staging: TargetStaging[] = []): PostView {
  const byAccount = new Map(targets.map((t) => [t.accountId, t]));
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
      ...(t.error ? { error: t.error } : {}),
      ...(t.details ? { details: t.details } : {}),
      ...((t.parts || t.status === 'unknown') && row.thread.length > 0
        ? { parts: viewParts(t.parts ?? [], t.status, row.thread.length + 1) }
        : {}),
      ...(t.firstComment
        ? { firstComment: publicStep(t.firstComment) }
        : t.status === 'unknown' && asksFirstComment(row, accountId)
          ? { firstComment: { status: interruptedComment(t.parts, row.thread.length + 1) } }
          : {}),
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

/** A stored step without its reply reference (the server's to keep). */
function publicStep<T extends StoredStep>({ replyRef: _, ...step }: T): Omit<T, 'replyRef'> {
  return step;
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

async function loadView(ctx: AppContext, row: PostRow): Promise<PostView> {
  const [targets, staging] = await Promise.all([targetsOf(ctx, row.id), stagingByPost(ctx, [row.id])]);
  return toPostView(row, targets, staging.get(row.id));
}

async function ownedPost(ctx: AppContext, userId: string, postId: string): Promise<PostRow> {
  const row = isUuid(postId) ? await findPost(ctx, userId, postId) : undefined;
  if (!row) throw notFound('post');
  return row;
}

export async function getPost(ctx: AppContext, userId: string, postId: string): Promise<PostView> {
  return loadView(ctx, await ownedPost(ctx, userId, postId));
}

/** Media references with where they sit in the request, for error paths. */
interface MediaSet {
  path: string;
  refs: readonly MediaReference[];
}

/**
 * Media references resolved to this user's stored media, set by set, in one lookup; anyone
 * else's key is `media_not_found`. The alt text given with a reference is kept with it.
 */
async function resolveOwnedMedia(
  ctx: AppContext,
  userId: string,
  sets: readonly MediaSet[],
): Promise<StoredMedia[][]> {
  const owned = await ownedMedia(ctx, userId, [...new Set(sets.flatMap((s) => s.refs.map((r) => r.key)))]);
  const missing = sets.flatMap(({ path, refs }) =>
    refs.flatMap((ref, index) =>
      owned.has(ref.key)
        ? []
        : [{ path: `${path}[${index}]`, code: 'media_not_found', message: `No media with key "${ref.key}"` }],
    ),
  );
  if (missing.length) throw validationFailed('Some media do not exist', missing);
  return sets.map(({ refs }) =>
    refs.map((ref) => ({
      ...toStoredMedia(ctx, owned.get(ref.key)!),
      ...(ref.altText ? { altText: ref.altText } : {}),
    })),
  );
}

/** The parts of a request that name media, resolved (each left undefined when not given). */
async function resolveContentMedia(
  ctx: AppContext,
  userId: string,
  given: {
    media?: readonly MediaReference[] | undefined;
    overrides?: Record<string, NormalizedOverride> | undefined;
    thread?: readonly NormalizedThreadPart[] | undefined;
  },
): Promise<{
  media?: StoredMedia[];
  overrides?: Record<string, StoredOverride>;
  thread?: StoredThreadPart[];
}> {
  const overrideEntries = Object.entries(given.overrides ?? {});
  const sets: MediaSet[] = [
    { path: 'media', refs: given.media ?? [] },
    ...overrideEntries.map(([id, o]) => ({ path: `overrides.${id}.media`, refs: o.media ?? [] })),
    ...(given.thread ?? []).map((part, i) => ({ path: `thread[${i}].media`, refs: part.media })),
  ];
  const [media, ...rest] = await resolveOwnedMedia(ctx, userId, sets);
  const overrides: Record<string, StoredOverride> = {};
  for (const [i, [id, o]] of overrideEntries.entries()) {
    overrides[id] = {
      ...(o.message !== undefined ? { message: o.message } : {}),
      ...(o.media !== undefined ? { media: rest[i]! } : {}),
    };
  }
  const threadMedia = rest.slice(overrideEntries.length);
  return {
    ...(given.media ? { media: media! } : {}),
    ...(given.overrides ? { overrides } : {}),
    ...(given.thread
      ? { thread: given.thread.map((part, i) => ({ message: part.message, media: threadMedia[i]! })) }
      : {}),
  };
}

/** Drafts skip platform validation but may still only name this user's accounts. */
async function assertOwnedAccounts(
  ctx: AppContext,
  userId: string,
  accountIds: readonly string[],
): Promise<void> {
  const found = await ownedAccountIds(ctx, userId, accountIds.filter(isUuid));
  const missing = accountIds.filter((id) => !found.has(id));
  if (missing.length) {
    throw validationFailed(
      'Some accounts do not exist',
      missing.map((id) => ({
        accountId: id,
        path: 'accountIds',
        code: 'account_not_found',
        message: `No account with id "${id}"`,
      })),
    );
  }
}

function assertFuture(when: Date | undefined): Date {
  if (!when) {
    throw validationFailed('scheduledAt is required to schedule a post', [
      { path: 'scheduledAt', code: 'required', message: 'Give an ISO 8601 date-time with an offset' },
    ]);
  }
  if (when.getTime() <= Date.now()) {
    throw validationFailed(`scheduledAt ${when.toISOString()} is in the past; choose a time in the future`, [
      { path: 'scheduledAt', code: 'scheduled_in_past', message: 'Must be in the future' },
    ]);
  }
  return when;
}

interface Content {
  message: string;
  accountIds: string[];
  media: StoredMedia[];
  accountOptions: AccountOptions;
  overrides: Record<string, StoredOverride>;
  thread: StoredThreadPart[];
}

function contentOf(row: PostRow): Content {
  return {
    message: row.message,
    accountIds: row.accountIds,
    media: row.media,
    accountOptions: row.accountOptions,
    overrides: row.overrides,
    thread: row.thread,
  };
}

/** Validates content against every target as the SDK sees it; 422 with per-account errors when invalid. */
async function validateForPublishing(
  ctx: AppContext,
  userId: string,
  content: Content,
  accountIds = content.accountIds,
) {
  const prepared = await preparePost(ctx, userId, { ...content, accountIds });
  if (!prepared.targets)
    throw validationFailed(
      'The post is not valid for some of its accounts',
      validationIssues(prepared.validation),
    );
  return prepared;
}

function pick<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => keys.includes(key)));
}

function leaseOwner(): string {
  return `request:${crypto.randomUUID()}`;
}

/** A new post's content with its media resolved from the user's storage, and its row's common fields. */
async function newPostContent(
  ctx: AppContext,
  userId: string,
  input: Omit<NormalizedPost, 'postingMode' | 'scheduledAt'>,
) {
  const resolved = await resolveContentMedia(ctx, userId, {
    media: input.media,
    overrides: input.overrides ?? {},
    thread: input.thread ?? [],
  });
  const content: Content = {
    message: input.message,
    accountIds: input.accountIds,
    media: resolved.media!,
    accountOptions: input.accountOptions,
    overrides: resolved.overrides!,
    thread: resolved.thread!,
  };
  const now = new Date();
  const base = { id: crypto.randomUUID(), userId, ...content, createdAt: now, updatedAt: now };
  return { content, base, now };
}

/** `POST /api/v1/posts`: save a draft, schedule, or publish now. */
export async function createPost(ctx: AppContext, userId: string, input: NormalizedPost): Promise<PostView> {
  const { content, base, now } = await newPostContent(ctx, userId, input);

  if (input.postingMode === 'draft') {
    await assertOwnedAccounts(ctx, userId, content.accountIds);
    const row = await insertPost(ctx, { ...base, status: 'draft', scheduledAt: input.scheduledAt ?? null });
    return toPostView(row, []);
  }
  if (input.postingMode === 'queue') {
    // The next free slot of every target's queue (`scheduledAt`, if given, is the earliest time wanted).
    await validateForPublishing(ctx, userId, content);
    const row = await scheduleInQueue(
      ctx,
      userId,
      content.accountIds,
      { notBefore: input.scheduledAt },
      (tx, when) =>
        insertPost(
          { ...ctx, ...tx },
          { ...base, status: 'scheduled', scheduledAt: when, nextAttemptAt: when },
        ),
    );
    return toPostView(row, []);
  }
  if (input.postingMode === 'schedule') {
    const when = assertFuture(input.scheduledAt);
    await validateForPublishing(ctx, userId, content);
    const row = await insertPost(ctx, {
      ...base,
      status: 'scheduled',
      scheduledAt: when,
      nextAttemptAt: when,
    });
    await announceDue(ctx, when);
    return toPostView(row, []);
  }
  assertAcceptingWork();
  const prepared = await validateForPublishing(ctx, userId, content);
  const owner = leaseOwner();
  const leaseUntil = new Date(now.getTime() + ctx.config.dispatcher.leaseMs);
  // Stored as a leased `scheduled` post: if this process dies mid-publish, dispatch finishes it.
  const row = await insertPost(ctx, {
    ...base,
    status: 'scheduled',
    nextAttemptAt: leaseUntil,
    leaseOwner: owner,
    leaseExpiresAt: leaseUntil,
    attempts: 1,
  });
  await publishNow(ctx, row, owner, prepared);
  return getPost(ctx, userId, row.id);
}

/** How `createPostWith` times a post: it never publishes in the caller's request. */
export type DeferredMode = 'draft' | 'queue' | 'due';

/**
 * Creates a post and runs `alongside(tx, row)` in the same transaction, so what the caller records
 * about the post (a feed item marked seen) commits with it or not at all. `draft` checks the
 * accounts only; `queue` takes the next free common slot under the queue lock; `due` stores a
 * post scheduled for now that the dispatcher publishes (a crash after the commit loses nothing,
 * and the dispatcher never publishes a target twice). Validation as `POST /api/v1/posts`.
 */
export async function createPostWith(
  ctx: AppContext,
  userId: string,
  input: Omit<NormalizedPost, 'postingMode' | 'scheduledAt'>,
  mode: DeferredMode,
  alongside: (tx: Db, row: PostRow) => Promise<void>,
): Promise<PostRow> {
  const { content, base, now } = await newPostContent(ctx, userId, input);
  const store = async (tx: Db, values: NewPostRow) => {
    const row = await insertPost(tx, values);
    await alongside(tx, row);
    return row;
  };
  if (mode === 'draft') {
    await assertOwnedAccounts(ctx, userId, content.accountIds);
    return inTransaction(ctx, (tx) => store(tx, { ...base, status: 'draft' }));
  }
  await validateForPublishing(ctx, userId, content);
  if (mode === 'queue') {
    return scheduleInQueue(ctx, userId, content.accountIds, {}, (tx, when) =>
      store(tx, { ...base, status: 'scheduled', scheduledAt: when, nextAttemptAt: when }),
    );
  }
  const row = await inTransaction(ctx, (tx) =>
    store(tx, { ...base, status: 'scheduled', scheduledAt: now, nextAttemptAt: now }),
  );
  await announceDue(ctx, now);
  return row;
}

/**
 * A publish-now of a post this request leased: the lease is renewed while publishing runs (as a
 * dispatcher renews its claims), so a publish outliving `DISPATCH_LEASE_MS` is never taken over by
 * a dispatcher and sent twice; a process that dies stops renewing and dispatch finishes the post.
 */
async function publishNow(
  ctx: AppContext,
  row: PostRow,
  owner: string,
  prepared: Parameters<typeof publishLeasedPost>[4],
): Promise<void> {
  const leaseMs = ctx.config.dispatcher.leaseMs;
  const leases = new LeaseKeeper(
    leaseMs,
    (ids) => renewPostLeases(ctx, owner, ids, leaseMs),
    (error) => ctx.logger.warn({ err: error, postId: row.id }, 'could not renew a publish-now lease'),
  );
  leases.hold(row.id);
  try {
    await publishLeasedPost(ctx, row, owner, { kind: 'now' }, prepared);
  } finally {
    leases.release(row.id);
    await leases.stop();
  }
}

export interface ListOptions {
  status?: PostStatus | undefined;
  limit: number;
  cursor?: string | undefined;
}

export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = iso ? parseOffsetDateTime(iso) : undefined;
  if (!createdAt || !id || !isUuid(id))
    throw new ProblemError(problem('invalid_request', 'The cursor is not valid'));
  return { createdAt, id };
}

/** Newest first, a page at a time; `nextCursor` continues after the page's last post. */
export async function listPosts(ctx: AppContext, userId: string, options: ListOptions) {
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = await listPostPage(ctx, userId, { status: options.status, limit: options.limit + 1, after });
  const page = rows.slice(0, options.limit);
  const staging = await stagingByPost(
    ctx,
    page.map((row) => row.post.id),
  );
  return {
    posts: page.map((row) => toPostView(row.post, row.targets, staging.get(row.post.id))),
    nextCursor: rows.length > options.limit ? encodeCursor(page.at(-1)!.post) : null,
  };
}

/** A post that is being published right now cannot change under the publisher's feet. */
function assertEditable(row: PostRow, action: string): void {
  if (row.status === 'posted') throw invalidStatus(`A posted post cannot be ${action}`);
  if (row.leaseExpiresAt && row.leaseExpiresAt.getTime() > Date.now()) {
    throw invalidStatus(`The post is being published right now and cannot be ${action}`);
  }
}

/** Updates the row only if nobody published or edited it since it was read (optimistic lock). */
async function updateGuarded(
  ctx: AppContext,
  row: PostRow,
  set: Partial<typeof posts.$inferInsert>,
): Promise<PostRow> {
  const updated = await updatePostIfUnchanged(ctx, row, set);
  if (!updated) throw invalidStatus('The post changed while this request ran; fetch it and try again');
  await forgetStaging(ctx, row, updated);
  return updated;
}

export async function updatePost(
  ctx: AppContext,
  userId: string,
  postId: string,
  patch: PostPatch,
): Promise<PostView> {
  const row = await ownedPost(ctx, userId, postId);
  assertEditable(row, 'updated');
  const accountIds = patch.accountIds ? [...new Set(patch.accountIds)] : row.accountIds;
  if (patch.overrides) assertOverrideKeys(accountIds, patch.overrides);
  const resolved = await resolveContentMedia(ctx, userId, patch);
  const content: Content = {
    message: patch.message ?? row.message,
    accountIds,
    media: resolved.media ?? row.media,
    accountOptions: patch.accountOptions ?? row.accountOptions,
    // Overrides of accounts the post no longer goes to mean nothing; they go with the account.
    overrides: resolved.overrides ?? pick(row.overrides, accountIds),
    thread: resolved.thread ?? row.thread,
  };
  const scheduledAt = patch.scheduledAt === undefined ? row.scheduledAt : patch.scheduledAt;
  const set: Partial<typeof posts.$inferInsert> = { ...content, scheduledAt };
  if (row.status === 'scheduled') {
    // A scheduled post must stay publishable and in the future.
    const when = assertFuture(scheduledAt ?? undefined);
    await validateForPublishing(ctx, userId, content);
    set.nextAttemptAt = when;
  } else {
    await assertOwnedAccounts(ctx, userId, content.accountIds);
  }
  const updated = await updateGuarded(ctx, row, set);
  if (set.nextAttemptAt) await announceDue(ctx, set.nextAttemptAt);
  if (patch.accountIds) {
    // Results of targets that were dropped and never posted no longer mean anything.
    await deleteDroppedTargets(ctx, row.id, content.accountIds);
  }
  return loadView(ctx, updated);
}

/** `POST /api/v1/posts/{id}`: publish now, schedule, or move back to draft. */
export async function actOnPost(
  ctx: AppContext,
  userId: string,
  postId: string,
  action: PostAction,
): Promise<PostView> {
  const row = await ownedPost(ctx, userId, postId);
  if ('resolveUnknown' in action) return resolveUnknown(ctx, userId, row, action);
  assertEditable(row, action.postingMode === 'now' ? 'published again' : 'changed');
  const content = contentOf(row);

  if (action.postingMode === 'draft') {
    return loadView(
      ctx,
      await updateGuarded(ctx, row, {
        status: 'draft',
        nextAttemptAt: null,
        ...(action.scheduledAt ? { scheduledAt: action.scheduledAt } : {}),
      }),
    );
  }
  if (content.accountIds.length === 0) {
    throw validationFailed('The post has no accounts', [
      { path: 'accountIds', code: 'required', message: 'Add at least one account' },
    ]);
  }
  const posted = await postedAccountIds(ctx, row.id);
  const remaining = content.accountIds.filter((id) => !posted.has(id));

  if (action.postingMode === 'queue') {
    await validateForPublishing(ctx, userId, content, remaining);
    const queued = await scheduleInQueue(
      ctx,
      userId,
      remaining,
      { notBefore: action.scheduledAt, postId: row.id },
      async (tx, when) => {
        const set = { status: 'scheduled' as const, scheduledAt: when, nextAttemptAt: when, attempts: 0 };
        const updated = await updatePostIfUnchanged({ ...ctx, ...tx }, row, set);
        if (!updated) throw invalidStatus('The post changed while this request ran; fetch it and try again');
        return updated;
      },
    );
    return loadView(ctx, queued);
  }
  if (action.postingMode === 'schedule') {
    const when = assertFuture(action.scheduledAt ?? row.scheduledAt ?? undefined);
    await validateForPublishing(ctx, userId, content, remaining);
    const scheduled = await updateGuarded(ctx, row, {
      status: 'scheduled',
      scheduledAt: when,
      nextAttemptAt: when,
      attempts: 0,
    });
    await announceDue(ctx, when);
    return loadView(ctx, scheduled);
  }
  assertAcceptingWork();
  const prepared = remaining.length
    ? await validateForPublishing(ctx, userId, content, remaining)
    : undefined;
  const owner = leaseOwner();
  const leaseUntil = new Date(Date.now() + ctx.config.dispatcher.leaseMs);
  const leased = await updateGuarded(ctx, row, {
    status: 'scheduled',
    leaseOwner: owner,
    leaseExpiresAt: leaseUntil,
    nextAttemptAt: leaseUntil,
    attempts: row.attempts + 1,
  });
  await publishNow(ctx, leased, owner, prepared);
  return getPost(ctx, userId, row.id);
}

/**
 * A person's answer to `unknown` targets. `mark_posted`: they checked the account; the post is
 * `posted` once every target is. `post_again`: the targets become failed-retryable and the post
 * is published now, which sends exactly those (and any other target that did not post).
 */
async function resolveUnknown(
  ctx: AppContext,
  userId: string,
  row: PostRow,
  action: Extract<PostAction, { resolveUnknown: unknown }>,
): Promise<PostView> {
  assertEditable(row, 'changed');
  const targets = await targetsOf(ctx, row.id);
  const unknown = targets.filter(
    (t) => t.status === 'unknown' && (!action.accountIds || action.accountIds.includes(t.accountId)),
  );
  if (unknown.length === 0) {
    throw specificProblem('invalid_status', 'The post has no target whose outcome is unknown');
  }
  const ids = unknown.map((t) => t.accountId);
  if (action.resolveUnknown === 'post_again') {
    await resolveUnknownTargets(ctx, row.id, ids, 'failed');
    return actOnPost(ctx, userId, row.id, { postingMode: 'now' });
  }
  await resolveUnknownTargets(ctx, row.id, ids, 'posted');
  const posted = await postedAccountIds(ctx, row.id);
  if (row.accountIds.every((id) => posted.has(id))) {
    return loadView(
      ctx,
      await updateGuarded(ctx, row, { status: 'posted', postedAt: new Date(), nextAttemptAt: null }),
    );
  }
  return getPost(ctx, userId, row.id);
}

export async function deletePost(ctx: AppContext, userId: string, postId: string): Promise<void> {
  const row = await ownedPost(ctx, userId, postId);
  assertEditable(row, 'deleted');
  // Its staged uploads the platform would keep are queued for discarding in the same statement.
  const { deleted, discards } = await deletePostQueueingDiscards(
    ctx,
    row.id,
    editableStatuses,
    discardPlatforms(ctx),
  );
  if (!deleted) throw invalidStatus('The post is being published and cannot be deleted');
  discardSoon(ctx, discards);
}
