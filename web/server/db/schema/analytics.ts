import { sql } from 'drizzle-orm';
import {
  bigint,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';
import { postTargets } from './posts.ts';

/*
 * Post analytics (docs/analytics.md, contract section H). Keyed on post targets and accounts, never
 * on an owner: who may read them follows from the post or account they belong to.
 */
/**
 * `collecting` on schedule; `done` after its last collection (+30 d); `gone` when the platform
 * deleted the post; `unsupported` when its platform reports no post metrics (it still counts as a post).
 */
export const metricsStates = ['collecting', 'done', 'gone', 'unsupported'] as const;

export type MetricsState = (typeof metricsStates)[number];

/**
 * One row per posted target of a platform that reports post metrics: what never changes after it
 * posted (its account, platform, time of posting, its id and URL there) and where its collection
 * stands (`state`). A collection never writes it (docs/analytics.md, "Append-only collection"):
 * its figures are its latest `metric_snapshots` row, and its next collection a `metric_due` entry.
 * Only a change of state (`done`, `gone`) or a refresh writes it.
 */
export const targetMetrics = pgTable(
  'target_metrics',
  {
    postId: uuid('post_id').notNull(),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    postedAt: ts('posted_at').notNull(),
    /**
     * The target's id and URL on its platform, copied from `post_targets` when it is enrolled, so a
     * claim reads what to ask the platform from the rows it takes (null on rows an older instance
     * enrolled: the claim looks them up).
     */
    platformPostId: text('platform_post_id'),
    url: text('url'),
    state: text('state').$type<MetricsState>().notNull().default('collecting'),
    /** The last collection a person asked for (`POST /posts/{id}/metrics/refresh`), at most one per 5 minutes. */
    refreshedAt: ts('refreshed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.accountId] }),
    foreignKey({
      columns: [t.postId, t.accountId],
      foreignColumns: [postTargets.postId, postTargets.accountId],
    }).onDelete('cascade'),
    // How top posts, best times and recounts read an account's targets by time of posting.
    index('target_metrics_account_posted').on(t.accountId, t.postedAt),
  ],
);

/**
 * The collection schedule, append-only: one entry per collecting target, at the time its next
 * collection is due, carrying its step and the figures it had (the rollups' difference is taken
 * from them). A collection deletes the entry it was claimed by and inserts the next, so no row is
 * ever updated in place; the key orders an account's entries by due time, which is how a claim
 * takes them. No foreign key (a check would lock the target's row per collection): the claim
 * reads each entry's target by key and drops an entry whose target is gone, and a trigger deletes
 * a deleted target's entries.
 */
export const metricDue = pgTable(
  'metric_due',
  {
    accountId: text('account_id').notNull(),
    dueAt: ts('due_at').notNull(),
    postId: uuid('post_id').notNull(),
    /** Collections made so far on the schedule (ANALYTICS_COLLECT_AFTER). */
    step: integer('step').notNull(),
    /** The target's time of posting (never changes): the rollups' buckets of its difference. */
    postedAt: ts('posted_at').notNull(),
    /** The target's latest figures and their engagement when this entry was written. */
    metrics: jsonb('metrics').$type<Record<string, number>>().notNull().default({}),
    engagement: integer('engagement'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.dueAt, t.postId] })],
);

/**
 * The collector's queue of accounts (docs/analytics.md#collection): per account with targets to
 * collect, when its earliest is due (`next_due_at`, the earliest `due_at` of its `metric_due`
 * entries; null when none is) and who holds it. A collector leases whole accounts, so
 * claiming and giving back a round writes a row per account rather than per target, and the next
 * claim finds the next due accounts without walking the targets of those being collected.
 * Writers of `metric_due` keep it: enrollment (here and when a post is published)
 * lowers it, a refresh sets it due, the claim pushes it to the lease's end, and giving the account
 * back recomputes it. Not keyed to `accounts`: a removed account's row is settled by the next claim.
 */
export const metricCollectAccounts = pgTable(
  'metric_collect_accounts',
  {
    accountId: text('account_id').primaryKey(),
    nextDueAt: ts('next_due_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    /**
     * The earliest entry queued for the account (enrolled, refreshed) since it was last given back:
     * the release counts it with what its round left, so an entry a claim could not see (enrolled
     * while the account was held, or as it was claimed) is collected on time.
     */
    queuedDueAt: ts('queued_due_at'),
  },
  (t) => [index('metric_collect_accounts_due').on(t.nextDueAt).where(sql`${t.nextDueAt} IS NOT NULL`)],
);

/** The columns of a rollup: the sums of `target_metrics` per account and bucket of posting time. */
const rollupColumns = () => ({
  accountId: text('account_id').notNull(),
  bucket: ts('bucket').notNull(),
  posts: integer('posts').notNull(),
  engagement: bigint('engagement', { mode: 'number' }),
  impressions: bigint('impressions', { mode: 'number' }),
  reach: bigint('reach', { mode: 'number' }),
  views: bigint('views', { mode: 'number' }),
  likes: bigint('likes', { mode: 'number' }),
  comments: bigint('comments', { mode: 'number' }),
  reposts: bigint('reposts', { mode: 'number' }),
  quotes: bigint('quotes', { mode: 'number' }),
  shares: bigint('shares', { mode: 'number' }),
  saves: bigint('saves', { mode: 'number' }),
  clicks: bigint('clicks', { mode: 'number' }),
});

/**
 * Sums of `target_metrics` per account and quarter hour of posting (UTC-aligned, so days in every
 * timezone, half- and quarter-hour offsets included, are whole buckets): what summaries and
 * series add up for timezones whose days do not start on a whole UTC hour. Kept by collection
 * for the buckets it touched; a metric column is null when no target of the bucket reported it.
 */
export const metricRollups = pgTable('metric_rollups', rollupColumns(), (t) => [
  primaryKey({ columns: [t.accountId, t.bucket] }),
]);

/**
 * The same sums per account and UTC hour, kept beside the quarter hours by the same writers in the
 * same statements: days in a timezone on a whole-hour offset (most, DST included) are whole hours,
 * so a summary adds up a quarter of the rows (about 720 per account and month).
 */
export const metricRollupsHourly = pgTable(
  'metric_rollups_hourly',
  {
    ...rollupColumns(),
    /**
     * At least the highest engagement of the hour's targets (exact when recounted; a collection
     * only raises it, so a figure that fell leaves it above): top posts read the hours in its
     * order and stop where no unread hour can beat what they found (docs/analytics.md).
     */
    topEngagement: bigint('top_engagement', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.bucket] }),
    // Top posts walk each account's hours in this order until enough of the range's are found.
    index('metric_rollups_hourly_top')
      .on(t.accountId, t.topEngagement.desc(), t.bucket.desc())
      .where(sql`${t.topEngagement} IS NOT NULL`),
  ],
);

/**
 * Every collection of a target's figures: its history, and its latest figures (the latest row by
 * the key, which every reader of a target's figures takes). Kept with its target by a trigger.
 */
export const metricSnapshots = pgTable(
  'metric_snapshots',
  {
    postId: uuid('post_id').notNull(),
    accountId: text('account_id').notNull(),
    collectedAt: ts('collected_at').notNull(),
    metrics: jsonb('metrics').$type<Record<string, number>>().notNull(),
    /** likes + comments + reposts + quotes + shares + saves + clicks (null when none is reported). */
    engagement: integer('engagement'),
  },
  // No foreign key to `target_metrics`: only the outcome write inserts, for the targets whose
  // entries it has just taken; a trigger deletes a deleted target's history (migration 0039).
  (t) => [primaryKey({ columns: [t.postId, t.accountId, t.collectedAt] })],
);

/** An account's own figures, one row per UTC day (the last collection of the day wins). */
export const accountMetrics = pgTable(
  'account_metrics',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    followers: integer('followers'),
    collectedAt: ts('collected_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** When each account's followers are next collected, and the collector's lease. */
export const accountMetricSchedule = pgTable(
  'account_metric_schedule',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    nextCollectAt: ts('next_collect_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
  },
  (t) => [index('account_metric_schedule_due').on(t.nextCollectAt)],
);
