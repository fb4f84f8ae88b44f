import { inArray, type SQL, sql } from 'drizzle-orm';
import type { AccountRow } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import { arrayLiteral } from '#server/db/array-literal.ts';
import { isUniqueViolation, runAgainOnDeadlock } from '#server/db/errors.ts';
import { executePrepared } from '#server/db/prepared.ts';
import { accounts, type MetricsState } from '#server/db/schema.ts';
import { isUuid } from '#server/http/ids.ts';
import { heldBy, queueAccountsOf } from './collect-queue.ts';
import {
  bucketsOfTargets,
  type RollupBucket,
  recountRollups,
  refreshRollups,
  rollupsByDifference,
} from './collect-rollups.ts';
import { latestSnapshot } from './latest-figures.ts';

/*
 * The collectors' SQL (docs/analytics.md): enrolling posted targets and accounts, writing what a
 * collection found, and the followers' schedule. Targets are claimed by account, through the
 * queue (./collect-queue.ts): a target's outcome is written only while its collector holds its
 * account. Nothing here is scoped to an owner: collection serves all.
 */

/** One target's outcome, as the collector writes it: its schedule, and its figures when they came back. */
export type TargetOutcome = ScheduleOutcome | FiguresOutcome;

/** The platform did not report this target this time (or it is gone): no figures. */
interface ScheduleOutcome {
  postId: string;
  accountId: string;
  /** The claimed entry's due time (`ClaimedTarget.dueAt`): the entry this outcome replaces. */
  dueAt: string;
  state: MetricsState;
  step: number;
  nextCollectAt: Date | null;
  metrics?: undefined;
}

interface FiguresOutcome extends Omit<ScheduleOutcome, 'metrics'> {
  metrics: Record<string, number>;
  engagement: number | null;
}

const list = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Gives every posted target without a metrics row one: `collecting`, with its first collection
 * due `firstOffsetMs` after it posted, when its platform reports post metrics, else `unsupported`
 * (its post still counts in summaries). Answers how many rows it added.
 */
export async function enrollPostedTargets(
  ctx: AppContext,
  collecting: readonly string[],
  firstOffsetMs: number,
): Promise<number> {
  // A target with short links is collected for their clicks whatever its platform reports.
  const shortLinks = sql`EXISTS (SELECT 1 FROM target_links l WHERE l.post_id = t.post_id AND l.account_id = t.account_id AND l.ref IS NOT NULL)`;
  const supported =
    collecting.length > 0 ? sql`(t.platform IN (${list(collecting)}) OR ${shortLinks})` : shortLinks;
  const result = await runAgainOnDeadlock(() =>
    ctx.db.execute(sql`
    WITH added AS (
    INSERT INTO target_metrics (post_id, account_id, platform, platform_post_id, url, posted_at, state)
    SELECT t.post_id, t.account_id, t.platform, t.platform_post_id, t.url, coalesce(p.posted_at, t.updated_at),
      CASE WHEN ${supported} THEN 'collecting' ELSE 'unsupported' END
    FROM post_targets t JOIN posts p ON p.id = t.post_id
    WHERE t.status = 'posted' AND t.platform_post_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM target_metrics m WHERE m.post_id = t.post_id AND m.account_id = t.account_id)
    ON CONFLICT DO NOTHING
    RETURNING post_id, account_id, posted_at, state
    ), ${firstEntries(sql`SELECT post_id, account_id, posted_at FROM added WHERE state = 'collecting'`, firstOffsetMs)}
    SELECT post_id, account_id FROM added`),
  );
  const added = rowsOf<{ post_id: string; account_id: string }>(result);
  if (added.length > 0) await refreshRollups(ctx, bucketsOfTargets(JSON.stringify(added)));
  return added.length;
}

/**
 * Two CTEs (`scheduled`, `queued`) giving newly enrolled targets (`rows`: `post_id, account_id,
 * posted_at`) their first `metric_due` entry, `firstOffsetMs` after they posted, and bringing their
 * accounts forward in the collector's queue. Publishing's finalizing statement uses them too.
 */
export const firstEntries = (rows: SQL, firstOffsetMs: number): SQL => sql`scheduled AS (
      INSERT INTO metric_due (account_id, due_at, post_id, step, posted_at)
      SELECT e.account_id, e.posted_at + ${firstOffsetMs} * interval '1 millisecond', e.post_id, 0, e.posted_at
      FROM (${rows}) AS e
      ON CONFLICT DO NOTHING
      RETURNING account_id, due_at AS next_collect_at
    ), queued AS (${queueAccountsOf(sql`SELECT account_id, next_collect_at FROM scheduled`)})`;

/** The accounts of a round of claimed targets, in one query (ids that are not accounts are left out). */
export async function accountRowsById(ctx: AppContext, ids: readonly string[]): Promise<AccountRow[]> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return [];
  return ctx.db.select().from(accounts).where(inArray(accounts.id, uuids));
}

/**
 * Writes outcomes of targets `owner` holds, in one statement however many there are (a bucket to
 * recompute takes one more), inserting only (docs/analytics.md, "Append-only collection"): each
 * takes its claimed `metric_due` entry (deleting it: the figures it carries are the rollups' old
 * ones), writes its figures to the history (which is the target's latest figures) and its next
 * entry, and adds the difference to the rollups. Only a change of state (`done`, `gone`) writes
 * the target's row. A target whose account another collector took over meanwhile is left alone.
 */
export async function recordTargetOutcomes(
  ctx: AppContext,
  owner: string,
  outcomes: readonly TargetOutcome[],
  collectedAt: Date,
): Promise<void> {
  if (outcomes.length === 0) return;
  const at = collectedAt.toISOString();
  // One array per column and the figures as one JSON array, not a JSON object per outcome: the
  // database converts each column's elements directly rather than walking every object's keys
  // first, and the parameters cost less to build here.
  const column = (pick: (o: TargetOutcome) => string | null) => arrayLiteral(outcomes.map(pick));
  const figures = JSON.stringify(outcomes.map((o) => o.metrics ?? null));
  // Without ON CONFLICT first: its check before each insert was a sixteenth of the database's work
  // per target, for conflicts that need two entries of one target in a round (never made: a target
  // has one entry). Should one come anyway, the statement fails whole and runs again with them.
  const write = (skipConflicts: boolean) => {
    const onConflict = sql.raw(skipConflicts ? 'ON CONFLICT DO NOTHING' : '');
    return executePrepared(
      ctx.db,
      sql`
    WITH x AS (
      SELECT x.post_id, x.account_id, x.due_at, nullif(x.metrics, 'null'::jsonb) AS metrics, x.engagement,
        x.state, x.step, x.next_collect_at
      -- Each column's elements in step (the figures' array too), the nth of each making the nth row.
      FROM ROWS FROM (unnest(${column((o) => o.postId)}::uuid[]), unnest(${column((o) => o.accountId)}::text[]),
        unnest(${column((o) => o.dueAt)}::timestamptz[]), jsonb_array_elements(${figures}::jsonb),
        unnest(${column((o) => (o.metrics && o.engagement !== null ? String(o.engagement) : null))}::int[]),
        unnest(${column((o) => o.state)}::text[]), unnest(${column((o) => String(o.step))}::int[]),
        unnest(${column((o) => o.nextCollectAt?.toISOString() ?? null)}::timestamptz[]))
        AS x(post_id, account_id, due_at, metrics, engagement, state, step, next_collect_at)
    ), taken AS (
      DELETE FROM metric_due AS d USING x
      WHERE d.account_id = x.account_id AND d.due_at = x.due_at AND d.post_id = x.post_id
        AND ${heldBy(owner, 'x.account_id')}
      RETURNING d.post_id, d.account_id, d.posted_at, x.metrics, x.engagement, x.state, x.step, x.next_collect_at,
        d.metrics AS old_metrics, d.engagement AS old_engagement
    ), history AS (
      INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
      SELECT post_id, account_id, ${at}::timestamptz, metrics, engagement FROM taken WHERE metrics IS NOT NULL
      ${onConflict}
    ), next AS (
      INSERT INTO metric_due (account_id, due_at, post_id, step, posted_at, metrics, engagement)
      SELECT account_id, next_collect_at, post_id, step, posted_at, coalesce(metrics, old_metrics),
        CASE WHEN metrics IS NULL THEN old_engagement ELSE engagement END
      FROM taken WHERE state = 'collecting' AND next_collect_at IS NOT NULL
      ${onConflict}
    ), ended AS (
      UPDATE target_metrics AS m SET state = t.state
      FROM (SELECT * FROM taken WHERE state <> 'collecting' OR next_collect_at IS NULL) AS t
      WHERE m.post_id = t.post_id AND m.account_id = t.account_id
    ), kept AS (
      SELECT account_id, posted_at, metrics, engagement, coalesce(old_metrics, '{}'::jsonb) AS old_metrics,
        old_engagement FROM taken
    ),
    ${rollupsByDifference}`,
    );
  };
  // Its rollup rows and its accounts' queue rows are shared with publishing's finalizations: as
  // they, it runs again when the database picks it as a deadlock's victim (db/errors.ts).
  const result = await runAgainOnDeadlock(() =>
    write(false).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      return write(true);
    }),
  );
  await recountRollups(ctx, rowsOf<RollupBucket>(result));
}

/**
 * Hands claimed targets back to be tried at `retryAt` (the same step: nothing was collected); their
 * account's next due time follows when it is given back (`releaseAccounts`).
 */
export async function postponeTargets(
  ctx: AppContext,
  owner: string,
  targets: readonly { postId: string; accountId: string; dueAt: string }[],
  retryAt: Date,
): Promise<void> {
  if (targets.length === 0) return;
  const keys = JSON.stringify(
    targets.map((t) => ({ post_id: t.postId, account_id: t.accountId, due_at: t.dueAt })),
  );
  await ctx.db.execute(sql`
    UPDATE metric_due AS d
    SET due_at = ${retryAt.toISOString()}::timestamptz
    FROM jsonb_to_recordset(${keys}::jsonb) AS x(post_id uuid, account_id text, due_at timestamptz)
    WHERE d.account_id = x.account_id AND d.due_at = x.due_at AND d.post_id = x.post_id
      AND ${heldBy(owner, 'x.account_id')}`);
}

/**
 * Marks a refresh of a post's targets (answers false when one was refreshed since `since`): those
 * done with their schedule (+30 d), which a person may still ask about, are collecting again with
 * an entry due now (done again after it: their schedule has no step left). The refresh's claim
 * then takes the post's entries whenever they are due (`claimDueTargets` with `postId`).
 */
export async function markRefreshed(
  ctx: AppContext,
  postId: string,
  since: Date,
  steps: number,
): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await runAgainOnDeadlock(() =>
    ctx.db.execute(sql`
    WITH refreshed AS (
      UPDATE target_metrics AS m
      SET refreshed_at = ${now}::timestamptz, state = CASE WHEN m.state = 'done' THEN 'collecting' ELSE m.state END
      WHERE m.post_id = ${postId}
        AND NOT EXISTS (SELECT 1 FROM target_metrics r WHERE r.post_id = ${postId}
          AND r.refreshed_at > ${since.toISOString()}::timestamptz)
      -- A target's state before this statement: a done one has no entry, so it is given one.
      RETURNING m.post_id, m.account_id, m.posted_at,
        (SELECT o.state FROM target_metrics o WHERE o.post_id = m.post_id AND o.account_id = m.account_id) AS was
    ), scheduled AS (
      INSERT INTO metric_due (account_id, due_at, post_id, step, posted_at, metrics, engagement)
      SELECT r.account_id, ${now}::timestamptz, r.post_id, ${steps}, r.posted_at, coalesce(s.metrics, '{}'::jsonb), s.engagement
      FROM refreshed r
      LEFT JOIN LATERAL (${latestSnapshot('r')}) AS s ON true
      WHERE r.was = 'done'
      ON CONFLICT DO NOTHING
      RETURNING account_id, due_at AS next_collect_at
    ), queued AS (${queueAccountsOf(sql`SELECT account_id, next_collect_at FROM scheduled`)})
    SELECT 1 FROM refreshed`),
  );
  return rowsOf(result).length > 0;
}

/** Whether another collector holds an account with one of this post's targets (a refresh waits for it). */
export async function hasHeldTargets(ctx: AppContext, postId: string): Promise<boolean> {
  const result = await ctx.db.execute(sql`
    SELECT 1 FROM target_metrics m JOIN metric_collect_accounts a ON a.account_id = m.account_id
    WHERE m.post_id = ${postId} AND m.state = 'collecting' AND a.lease_expires_at > now() LIMIT 1`);
  return rowsOf(result).length > 0;
}

/** The latest refresh of a post's targets, for `Retry-After`. */
export async function lastRefreshOf(ctx: AppContext, postId: string): Promise<Date | null> {
  const result = await ctx.db.execute(sql`
    SELECT max(refreshed_at) AS at FROM target_metrics WHERE post_id = ${postId}`);
  return dateOrNull(rowsOf<{ at: unknown }>(result)[0]?.at);
}

/** Gives each active account of a platform with account metrics a followers schedule, due now. */
export async function enrollAccounts(ctx: AppContext, platforms: readonly string[]): Promise<void> {
  if (platforms.length === 0) return;
  await ctx.db.execute(sql`
    INSERT INTO account_metric_schedule (account_id, next_collect_at)
    SELECT a.id, now() FROM accounts a
    WHERE a.platform IN (${list(platforms)})
      AND NOT EXISTS (SELECT 1 FROM account_metric_schedule s WHERE s.account_id = a.id)
    ON CONFLICT DO NOTHING`);
}

/** Claims up to `limit` active accounts whose followers are due. */
export async function claimDueAccounts(
  ctx: AppContext,
  owner: string,
  options: { limit: number; leaseMs: number },
): Promise<string[]> {
  const now = new Date();
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT s.account_id FROM account_metric_schedule s JOIN accounts a ON a.id = s.account_id
      WHERE s.next_collect_at <= ${now.toISOString()}::timestamptz AND a.status = 'active'
      ORDER BY s.next_collect_at
      LIMIT ${options.limit}
      FOR UPDATE OF s SKIP LOCKED
    )
    UPDATE account_metric_schedule AS s
    SET lease_owner = ${owner}, lease_expires_at = ${until}::timestamptz, next_collect_at = ${until}::timestamptz
    FROM due WHERE s.account_id = due.account_id
    RETURNING s.account_id`);
  return rowsOf<{ account_id: string }>(result).map((r) => String(r.account_id));
}

/** Writes an account's followers for today (UTC; a later collection the same day replaces it). */
export async function recordFollowers(
  ctx: AppContext,
  accountId: string,
  followers: number | null,
  at: Date,
): Promise<void> {
  await ctx.db.execute(sql`
    INSERT INTO account_metrics (account_id, day, followers, collected_at)
    VALUES (${accountId}, ${at.toISOString().slice(0, 10)}, ${followers}, ${at.toISOString()}::timestamptz)
    ON CONFLICT (account_id, day) DO UPDATE SET followers = excluded.followers, collected_at = excluded.collected_at`);
}

/** Sets when an account `owner` holds is next collected, and gives its lease back. */
export async function rescheduleAccount(
  ctx: AppContext,
  owner: string,
  accountId: string,
  next: Date,
): Promise<void> {
  await ctx.db.execute(sql`
    UPDATE account_metric_schedule
    SET next_collect_at = ${next.toISOString()}::timestamptz, lease_owner = NULL, lease_expires_at = NULL
    WHERE account_id = ${accountId} AND lease_owner = ${owner}`);
}
