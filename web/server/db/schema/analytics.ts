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
 * One row per posted target of a platform that reports post metrics: its latest figures (the
 * rollup every summary reads, so a summary never scans the history), where its schedule stands
 * (`step` collections made, the next at `next_collect_at`), and the collector's lease.
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
    step: integer('step').notNull().default(0),
    nextCollectAt: ts('next_collect_at'),
    metrics: jsonb('metrics').$type<Record<string, number>>().notNull().default({}),
    /** likes + comments + reposts + quotes + shares + saves + clicks of the latest figures. */
    engagement: integer('engagement'),
    impressions: integer('impressions'),
    collectedAt: ts('collected_at'),
    /** The last collection a person asked for (`POST /posts/{id}/metrics/refresh`), at most one per 5 minutes. */
    refreshedAt: ts('refreshed_at'),
    /** Unused since migration 0032 (the collector leases accounts: `metric_collect_accounts`); kept while older instances may still run. */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.accountId] }),
    foreignKey({
      columns: [t.postId, t.accountId],
      foreignColumns: [postTargets.postId, postTargets.accountId],
    }).onDelete('cascade'),
    // An account's due targets in order (the collector asks a platform for up to 100 per call),
    // and its earliest, for `metric_collect_accounts.next_due_at`.
    index('target_metrics_account_due')
      .on(t.accountId, t.nextCollectAt)
      .where(sql`${t.state} = 'collecting'`),
    // Also how top posts read an hour's targets (they find the hours through
    // `metric_rollups_hourly.top_engagement`: no index on `engagement`, which every collection changes).
    index('target_metrics_account_posted').on(t.accountId, t.postedAt),
  ],
);

/**
 * The collector's queue of accounts (docs/analytics.md#collection): per account with targets to
 * collect, when its earliest is due (`next_due_at`, the earliest `next_collect_at` of its
 * collecting targets; null when none is) and who holds it. A collector leases whole accounts, so
 * claiming and giving back a round writes a row per account rather than per target, and the next
 * claim finds the next due accounts without walking the targets of those being collected.
 * Writers of a target's `next_collect_at` keep it: enrollment (here and when a post is published)
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

/** Every collection of a target's figures, for its history (kept with its target by a trigger). */
export const metricSnapshots = pgTable(
  'metric_snapshots',
  {
    postId: uuid('post_id').notNull(),
    accountId: text('account_id').notNull(),
    collectedAt: ts('collected_at').notNull(),
    metrics: jsonb('metrics').$type<Record<string, number>>().notNull(),
  },
  // No foreign key to `target_metrics`: only the outcome write inserts, from the rows it has just
  // updated; a trigger deletes a deleted target's history (migration 0039).
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
