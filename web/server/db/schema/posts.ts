import type { TargetDetails } from '@postwave/shared';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { ownedRow, users, workspaceRef } from './users.ts';

/** `pending_approval`: a submission waiting for an approver (docs/workspaces.md#approvals). */
export const postStatuses = ['draft', 'scheduled', 'posted', 'failed', 'pending_approval'] as const;

export type PostStatus = (typeof postStatuses)[number];

/**
 * `publishing` is the publish intent, written before the platform is called; `unknown` is an
 * intent whose outcome was lost on a platform that can neither dedupe a resend nor look it up.
 */
export const targetStatuses = ['publishing', 'posted', 'failed', 'unknown'] as const;

export type TargetStatus = (typeof targetStatuses)[number];

/**
 * Media a user uploaded or reserved through presign; a post may only reference its owner's keys.
 * Every upload is a row of the workspace's media library (docs/media-library.md). `sha256` is the
 * digest of the stored bytes, computed while they streamed in; null for rows older than the
 * library and for a presigned upload whose bytes have not arrived (or that duplicated bytes the
 * workspace already had: its key was already handed out, so it is kept rather than merged).
 */
export const media = pgTable(
  'media',
  {
    ...ownedRow(),
    key: text('key').notNull().unique(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storage: text('storage').$type<'local' | 's3'>().notNull(),
    createdAt: ts('created_at').notNull(),
    sha256: text('sha256'),
    width: integer('width'),
    height: integer('height'),
    durationMs: integer('duration_ms'),
    /** The default alt text wherever the media is reused without its own. */
    altText: text('alt_text'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    /** The stored thumbnail's key (images), beside the media in the same storage; null: none. */
    thumbnailKey: text('thumbnail_key'),
    /**
     * When the stored bytes were hashed and (images) thumbnailed. Null for rows whose bytes the
     * Scheduler has not seen yet (a presign, a direct S3 upload, rows older than the library):
     * listing the library inspects those in the background.
     */
    inspectedAt: ts('inspected_at'),
  },
  (t) => [
    index('media_workspace').on(t.workspaceId),
    index('media_workspace_created_id').on(t.workspaceId, t.createdAt, t.id),
    uniqueIndex('media_workspace_sha256').on(t.workspaceId, t.sha256).where(sql`${t.sha256} is not null`),
  ],
);

/** A type alias (not an interface) so it is assignable to the SDK's loose MediaReference. */
export type StoredMedia = {
  id: string;
  key: string;
  url: string;
  filename: string;
  contentType: string;
  size: number;
  storage: 'local' | 's3';
  /** The alt text given with the post for this file (docs/composer-fields.md). */
  altText?: string;
};

/** One account's version of a post (`overrides[accountId]`): a given field replaces the base post's. */
export type StoredOverride = { message?: string; media?: StoredMedia[] };

/** One thread part after the first message. */
export type StoredThreadPart = { message: string; media: StoredMedia[] };

/**
 * A step of a target that reached the platform, or the one that failed: `replyRef` (opaque, the
 * platform's reply reference) is what lets a retry continue the chain after it.
 */
export type StoredStep = {
  status: 'posted' | 'failed' | 'pending' | 'unknown';
  platformPostId?: string;
  url?: string;
  replyRef?: string;
  error?: { code: string; message: string; retryable: boolean; hint?: string };
  details?: TargetDetails;
};

export type StoredPart = StoredStep & { index: number };

/**
 * Evergreen recycling (docs/recycling.md): after the post posts, a copy is scheduled `intervalDays`
 * later, up to `maxTimes` copies and not after `until`, each moved by up to ± `jitterMinutes`.
 */
export type RecycleSettings = {
  intervalDays: number;
  maxTimes: number;
  until?: string;
  jitterMinutes: number;
};

/** A scheduled post's problem found before its due time: what, which account, what to do. */
export type PostRisk = { code: string; message: string; hint: string; accountId?: string; checkedAt: string };

/** Who acted on an approval: a member (or an assistant for one), or a client through a review link. */
export type ApprovalActor = { type: 'member' | 'assistant' | 'reviewer'; id?: string; name: string };

/**
 * A post's approval state (docs/workspaces.md#approvals): what the submitter asked for, by whom,
 * and the last decision. `requested` stays after a decision so the post page can say what was asked.
 */
export type StoredApproval = {
  requested: { postingMode: 'now' | 'schedule' | 'queue'; scheduledAt?: string };
  requestedBy: ApprovalActor;
  requestedAt: string;
  /**
   * Why it waits: the workspace's `approvals` setting, or `assistants` (an assistant's post under
   * `assistantsRequireApproval`, which the member who granted the assistant may approve).
   */
  reason?: 'approvals' | 'assistants';
  approved?: { by: ApprovalActor; at: string; comment?: string };
  rejected?: { by: ApprovalActor; at: string; comment: string };
};

export const posts = pgTable(
  'posts',
  {
    ...ownedRow(),
    /**
     * The member who wrote it (a contributor edits only their own posts; no self-approval); null
     * for posts a feed created, or once the author's user is gone.
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<PostStatus>().notNull(),
    message: text('message').notNull(),
    accountIds: jsonb('account_ids').$type<string[]>().notNull(),
    media: jsonb('media').$type<StoredMedia[]>().notNull(),
    accountOptions: jsonb('account_options').$type<Record<string, Record<string, unknown>>>().notNull(),
    /** Per-account versions, keyed by account id (only ids among `account_ids`). */
    overrides: jsonb('overrides').$type<Record<string, StoredOverride>>().notNull().default({}),
    /** Parts after the first message, published as a reply chain. */
    thread: jsonb('thread').$type<StoredThreadPart[]>().notNull().default([]),
    scheduledAt: ts('scheduled_at'),
    postedAt: ts('posted_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** When dispatch may next pick the post up: scheduledAt, then later for retries. */
    nextAttemptAt: ts('next_attempt_at'),
    /** Who is publishing the post right now, until when. An expired lease may be taken over. */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    /** Publishing rounds so far (dispatch retries give up after a limit). */
    attempts: integer('attempts').notNull().default(0),
    /** What the last pre-flight check found wrong (docs/dispatch.md#pre-flight); null when all was well. */
    risk: jsonb('risk').$type<PostRisk>(),
    /** When the pre-flight check last claimed the post (null: not checked since it was scheduled). */
    preflightCheckedAt: ts('preflight_checked_at'),
    /** Evergreen settings of an original post; null when it is not recycled (copies never carry them). */
    recycle: jsonb('recycle').$type<RecycleSettings>(),
    /**
     * The original a recycled copy was made from (null for originals). Set null when the original
     * goes: its copies already posted stay, its pending ones are deleted with it (migration trigger).
     */
    recycledFrom: uuid('recycled_from').references((): AnyPgColumn => posts.id, { onDelete: 'set null' }),
    /** Which copy of the original this is, 1 first. */
    recycleIndex: integer('recycle_index'),
    /** The submission and its decision; null for a post never submitted for approval. */
    approval: jsonb('approval').$type<StoredApproval>(),
  },
  (t) => [
    // One copy per original and index, however many dispatchers finish the same post at once.
    uniqueIndex('posts_recycled_from_index').on(t.recycledFrom, t.recycleIndex),
    // Ascending on purpose: scanned backwards they give `created_at DESC, id DESC` (NULLS FIRST,
    // the default the list query orders by); a `DESC NULLS LAST` index would not serve it.
    index('posts_workspace_created_id').on(t.workspaceId, t.createdAt, t.id),
    index('posts_workspace_status_created_id').on(t.workspaceId, t.status, t.createdAt, t.id),
    index('posts_due').on(t.status, t.nextAttemptAt).where(sql`${t.status} = 'scheduled'`),
  ],
);

/**
 * One row per post and account once publishing to it starts. The primary key, and the guarded
 * upsert that claims a row, are what keep a target from ever being posted twice.
 */
export const postTargets = pgTable(
  'post_targets',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    status: text('status').$type<TargetStatus>().notNull(),
    platformPostId: text('platform_post_id'),
    url: text('url'),
    error: jsonb('error').$type<{ code: string; message: string; retryable: boolean }>(),
    claimOwner: text('claim_owner'),
    /** The platform's dedupe handle chosen before the send (Bluesky record key), for a safe resume. */
    dedupeHandle: text('dedupe_handle'),
    /**
     * A thread's parts as far as they went (index 0: the first message), with their reply
     * references: a retry continues after the posted ones. Null for a post without a thread.
     * While the target is `publishing`, `dedupe_handle` belongs to the first part not posted.
     */
    parts: jsonb('parts').$type<StoredPart[]>(),
    /** The first comment's outcome, once it was tried or posted; null when none was asked for. */
    firstComment: jsonb('first_comment').$type<StoredStep>(),
    /** What the platform reported beyond the post id (per-relay answers), as the SDK returned it. */
    details: jsonb('details').$type<TargetDetails>(),
    attempts: integer('attempts').notNull().default(0),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.accountId] }), index('post_targets_account').on(t.accountId)],
);

export const stagingStatuses = ['staging', 'staged', 'stage_failed'] as const;

export type StagingStatus = (typeof stagingStatuses)[number];

/**
 * Media uploaded to a platform ahead of a scheduled post's due time (`Publisher.stage`), one row
 * per target: `staging` while a dispatcher holds the lease and uploads, `staged` with the
 * publisher's handle and when the platform forgets it, `stage_failed` (the due-time publish then
 * uploads as usual). Apart from `post_targets` on purpose: a staged target has no publish intent.
 */
export const postStagings = pgTable(
  'post_stagings',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    status: text('status').$type<StagingStatus>().notNull(),
    /** The publisher's opaque handle (media ids, a container id), passed back as `context.staged`. */
    handle: text('handle'),
    expiresAt: ts('expires_at'),
    /** A digest of what was staged (message, media, options): a handle of other content is never used. */
    contentKey: text('content_key').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    error: jsonb('error').$type<{ code: string; message: string; retryable: boolean }>(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.accountId] })],
);

/**
 * Staged uploads to remove from the platform (`Publisher.discardStaged`): a staged private YouTube
 * video or unpublished Facebook video whose post was edited, deleted, moved back to draft, or whose
 * staging was dropped. Apart from `post_stagings` on purpose: the post may be gone (a delete) or
 * staged again for the same account (an edit) while its old upload still waits to be removed.
 * The staging pass sweeps rows whose `next_attempt_at` has come; a sweep holds a row by moving
 * that time past its lease, and backs off after a failure.
 */
export const stagedDiscards = pgTable(
  'staged_discards',
  {
    id: uuid('id').primaryKey(),
    workspaceId: workspaceRef(),
    /** No foreign key: an account removed since leaves nothing to discard with (the row is dropped). */
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    handle: text('handle').notNull(),
    /** The post it was staged for (perhaps deleted since), for logs. */
    postId: uuid('post_id').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    lastError: jsonb('last_error').$type<{ code: string; message: string; retryable: boolean }>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('staged_discards_due').on(t.nextAttemptAt)],
);

export const postEventActors = ['user', 'assistant', 'api', 'system', 'reviewer'] as const;

export type PostEventActor = (typeof postEventActors)[number];

/**
 * A post's timeline (docs/dispatch.md#timeline): every step, oldest first. State changes (created,
 * updated, scheduled, each attempt at a platform with its outcome, posted, failed, resolved,
 * deleted) are written by database triggers on `posts` and `post_targets` (migration 0020), so
 * each event commits with the state it describes whatever code path wrote it, batched with the
 * dispatcher's own statements. Assistants' requests (an MCP client's name in `actor_name`) are
 * written by the MCP actor. `action` holds the event's type. A deleted post's events stay, ending
 * with `deleted` (migration 0043), until its workspace goes.
 */
export const postEvents = pgTable(
  'post_events',
  {
    id: uuid('id').primaryKey(),
    /**
     * No foreign keys here (migration 0037): every event is written with its post's row held, and
     * triggers clear a deleted user's id and delete a deleted workspace's events (migration 0043).
     */
    postId: uuid('post_id').notNull(),
    /**
     * The post's workspace, which scopes the timeline once the post is gone (a deleted post's
     * events stay). No foreign key either, for the same cost: a trigger on `workspaces` does what
     * its `ON DELETE CASCADE` would.
     */
    workspaceId: uuid('workspace_id').notNull(),
    /** The post's author when the event was written (null once that user is gone); scoping is by the post's workspace. */
    userId: uuid('user_id'),
    /** Who acted; null where the writer did not say (see the triggers). */
    actor: text('actor').$type<PostEventActor>(),
    /** The MCP client's name (or the API token's) that acted; null for the user in the browser. */
    actorName: text('actor_name'),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** The target's account, for attempts and per-account outcomes. */
    accountId: text('account_id'),
    /** The thread part an attempt sent (0: the message). */
    part: integer('part'),
    /** Which attempt of the target this was (1 first). */
    attempt: integer('attempt'),
    /** An attempt's or resolution's outcome: posted, failed or unknown. */
    outcome: text('outcome'),
    error: jsonb('error').$type<{
      code: string;
      message: string;
      retryable: boolean;
      platformStatus?: number;
    }>(),
    createdAt: ts('created_at').notNull(),
    /** Insertion order: events of one statement share their time. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  // Every read names the workspace (the timeline, the actor's naming), and a deleted workspace's
  // events are found by it: one index serves both.
  (t) => [index('post_events_workspace_post').on(t.workspaceId, t.postId, t.createdAt)],
);
