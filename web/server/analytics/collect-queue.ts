import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import { runAgainOnDeadlock } from '#server/db/errors.ts';
import { executePrepared } from '#server/db/prepared.ts';

/*
 * The collector's queue of accounts (`metric_collect_accounts`, docs/analytics.md#collection). A
 * collector leases whole accounts: the claim writes one row per account, not one per target, and
 * finds the next due accounts through the queue's index, never walking the due entries of
 * accounts being collected (which stay until their outcomes are written). SKIP LOCKED hands
 * concurrent collectors disjoint accounts; the claim pushes an account's `next_due_at` to its
 * lease's end, so the account of a collector that died becomes due again when the lease runs out.
 */

/** A claimed target with what its platform needs to find it. */
export interface ClaimedTarget {
  postId: string;
  accountId: string;
  platform: string;
  postedAt: Date;
  step: number;
  /**
   * When its `metric_due` entry was due (with its account and post, the entry's key), as the
   * database wrote it: a Date would drop its microseconds and miss the entry.
   */
  dueAt: string;
  platformPostId: string;
  url: string | null;
  /**
   * When the earliest entry of its account the claim did not take is due (text, as `dueAt`), null
   * when there is none: with the round's outcomes, the account's next due time when it is given
   * back (`releaseAccounts`), so the release need not walk the entries the round just deleted.
   */
  accountNextDue: string | null;
}

/** The earliest due entry of an account (`a.account_id`), from the entries' key. */
const earliestDue = sql`(SELECT d.due_at FROM metric_due d
  WHERE d.account_id = a.account_id ORDER BY d.due_at LIMIT 1)`;

/**
 * A statement (a CTE's body) bringing forward the accounts of `rows` (a query of `account_id,
 * next_collect_at`, such as newly scheduled entries) to their earliest, and keeping that in
 * `queued_due_at` until the account is next given back (`releaseAccounts`): a claim running meanwhile
 * may not see the entries, and an account held has its next due time set by its release. Rows are
 * taken in key order, so statements doing so at once wait for each other rather than deadlock.
 */
export const queueAccountsOf = (rows: SQL): SQL => sql`
  INSERT INTO metric_collect_accounts AS a (account_id, next_due_at, queued_due_at)
  SELECT q.account_id, min(q.next_collect_at), min(q.next_collect_at) FROM (${rows}) AS q
  WHERE q.next_collect_at IS NOT NULL GROUP BY q.account_id ORDER BY q.account_id
  ON CONFLICT (account_id) DO UPDATE
  SET next_due_at = least(a.next_due_at, excluded.next_due_at),
    queued_due_at = least(a.queued_due_at, excluded.queued_due_at)`;

/** A condition: the account `column` names is held by `owner`. */
export const heldBy = (owner: string, column: string): SQL =>
  sql`EXISTS (SELECT 1 FROM metric_collect_accounts h
    WHERE h.account_id = ${sql.raw(column)} AND h.lease_owner = ${owner})`;

/**
 * Claims up to `limit` due targets (optionally only those of one post, for a refresh), whole
 * accounts at a time: of the earliest-due unleased accounts, up to `perAccount` entries each in
 * due order (the key of `metric_due`), so a platform that answers for many posts at once (X: 100
 * ids a call) is asked with full calls. The accounts that gave targets are leased; the entries
 * stay until their outcomes are written (so a collector that dies loses nothing: its leases run out).
 */
export async function claimDueTargets(
  ctx: AppContext,
  owner: string,
  options: { limit: number; leaseMs: number; postId?: string; perAccount?: number },
): Promise<ClaimedTarget[]> {
  const now = new Date().toISOString();
  const until = new Date(Date.parse(now) + options.leaseMs).toISOString();
  const perAccount = options.perAccount ?? 100;
  // Half as many accounts again as the round needs when each has `perAccount` due, so accounts
  // with only a few due still fill a fair part of it; each is read at most `perAccount` deep.
  const needed = Math.ceil(options.limit / perAccount);
  const accounts = Math.max(8, needed + Math.ceil(needed / 2));
  /**
   * Entry `alias` of account `account` is due now; for a refresh, it is the refreshed post's,
   * whenever due (a refresh collects it now, and its next entry follows from then).
   */
  const due = (alias: string, account: string) => {
    const d = sql.raw(alias);
    return options.postId
      ? sql`${d}.account_id = ${sql.raw(account)} AND ${d}.post_id = ${options.postId}`
      : sql`${d}.account_id = ${sql.raw(account)} AND ${d}.due_at <= ${now}::timestamptz`;
  };
  const accountDue = options.postId
    ? sql`a.account_id IN (SELECT p.account_id FROM target_metrics p WHERE p.post_id = ${options.postId})`
    : sql`a.next_due_at <= ${now}::timestamptz`;
  const unleased = (alias: string) =>
    sql`(${sql.raw(alias)}.lease_expires_at IS NULL OR ${sql.raw(alias)}.lease_expires_at <= ${now}::timestamptz)`;
  // The accounts walked past because none of their entries is due (their posts were deleted, the
  // account removed) get their true next due time, so they never stand at the queue's head again:
  // those due before the last candidate (not at the same instant: such an account may simply not
  // have fitted, and locking it would keep another collector from it), or all when none was found.
  const settled = options.postId
    ? sql``
    : sql`, settled AS (
      UPDATE metric_collect_accounts AS a SET next_due_at = ${earliestDue}
      FROM (SELECT s.account_id FROM metric_collect_accounts s
        WHERE (s.next_due_at < (SELECT max(c.next_due_at) FROM candidates c)
            OR (s.next_due_at <= ${now}::timestamptz AND NOT EXISTS (SELECT 1 FROM candidates)))
          AND ${unleased('s')} AND s.account_id NOT IN (SELECT c.account_id FROM candidates c)
        FOR UPDATE SKIP LOCKED) AS s
      WHERE a.account_id = s.account_id
    )`;
  const result = await executePrepared(
    ctx.db,
    sql`
    WITH candidates AS (
      SELECT a.account_id, a.next_due_at FROM metric_collect_accounts a
      WHERE ${accountDue} AND ${unleased('a')}
        AND EXISTS (SELECT 1 FROM metric_due e WHERE ${due('e', 'a.account_id')})
      ORDER BY a.next_due_at
      LIMIT ${accounts}
      FOR UPDATE SKIP LOCKED
    ), due AS (
      SELECT d.*, c.next_due_at AS account_due FROM candidates c
      CROSS JOIN LATERAL (
        SELECT d.post_id, d.account_id, d.due_at, d.step, d.posted_at
        FROM metric_due d
        WHERE ${due('d', 'c.account_id')}
        ORDER BY d.due_at, d.post_id
        LIMIT ${perAccount}) AS d
    ), taken AS (
      SELECT r.*, r.next_account IS DISTINCT FROM r.account_id OR r.n = ${options.limit} AS last_of_account
      FROM (
        SELECT due.*, row_number() OVER w AS n, lead(due.account_id) OVER w AS next_account
        FROM due
        -- Accounts due at the same time (common) in byte order: their ids are compared for most
        -- pairs the sort meets, and a collation's rules (en_US and the like) make each compare dear.
        WINDOW w AS (ORDER BY due.account_due, due.account_id COLLATE "C", due.due_at, due.post_id)) AS r
      WHERE r.n <= ${options.limit}
    ), untaken AS MATERIALIZED (
      -- Per account, the earliest entry not taken: the one after its last taken (the claim takes a
      -- prefix of its entries in key order; one probe by key, past the entries taken), or for a
      -- refresh its earliest entry of another post. (Materialized: inlined, the probe ran per target.)
      SELECT l.account_id, (SELECT d.due_at FROM metric_due d WHERE d.account_id = l.account_id
        AND ${
          options.postId
            ? sql`d.post_id <> ${options.postId}`
            : sql`(d.due_at, d.post_id) > (l.due_at, l.post_id)`
        } ORDER BY d.due_at, d.post_id LIMIT 1) AS next_due
      FROM taken l WHERE l.last_of_account
    ), targets AS (
      SELECT k.post_id, k.account_id, k.due_at, k.posted_at, k.step, m.platform, m.platform_post_id, m.url
      -- By key, one probe per entry (as a join, the planner may hash every target).
      FROM taken k LEFT JOIN LATERAL (SELECT m.platform, m.platform_post_id, m.url FROM target_metrics m
        WHERE m.post_id = k.post_id AND m.account_id = k.account_id LIMIT 1) AS m ON true
    ), leased AS (
      UPDATE metric_collect_accounts AS a
      SET lease_owner = ${owner}, lease_expires_at = ${until}::timestamptz, next_due_at = ${until}::timestamptz
      -- (An account whose entries were all orphans is not held: the next claim settles it.)
      WHERE a.account_id IN (SELECT account_id FROM targets WHERE platform IS NOT NULL)
    ), orphans AS (
      -- An entry whose target was deleted while a collection held it (the deletion's trigger
      -- could not see the entry that collection then wrote) is dropped here, never collected.
      DELETE FROM metric_due d USING targets k
      WHERE k.platform IS NULL AND d.account_id = k.account_id AND d.due_at = k.due_at AND d.post_id = k.post_id
    )${settled}
    SELECT k.post_id, k.account_id, k.platform, k.posted_at, k.step, k.due_at::text AS due_at,
      coalesce(k.platform_post_id, t.platform_post_id) AS platform_post_id,
      CASE WHEN k.platform_post_id IS NULL THEN t.url ELSE k.url END AS url,
      u.next_due::text AS account_next_due
    FROM targets k
    JOIN untaken u ON u.account_id = k.account_id
    -- A row enrolled by an older instance (without the target's id) looks it up, by key: a join the
    -- planner may hash would read every post target.
    LEFT JOIN LATERAL (SELECT t.platform_post_id, t.url FROM post_targets t
      WHERE k.platform_post_id IS NULL AND t.post_id = k.post_id AND t.account_id = k.account_id
      LIMIT 1) AS t ON true
    WHERE k.platform IS NOT NULL`,
  );
  return rowsOf<Record<string, unknown>>(result).map((row) => ({
    postId: String(row.post_id),
    accountId: String(row.account_id),
    platform: String(row.platform),
    postedAt: dateOrNull(row.posted_at)!,
    step: Number(row.step),
    dueAt: String(row.due_at),
    platformPostId: String(row.platform_post_id),
    url: (row.url as string | null) ?? null,
    accountNextDue: (row.account_next_due as string | null) ?? null,
  }));
}

/** What a round left of one of its accounts in the queue: an entry's due time (null: none). */
export interface AccountRelease {
  accountId: string;
  at: string | null;
}

/**
 * Gives back the accounts `owner` holds among `releases` once their round's outcomes are written,
 * each due again at the earliest entry its round left: the entry its claim did not take, the next
 * entries its outcomes wrote, the entries it postponed or could not write, and any entry queued
 * since the account was last given back (`queued_due_at`: enrolled or refreshed meanwhile, which
 * its claim may not have seen; one it did see makes the account due early, and the next claim
 * settles it). Before, the release walked the account's entries from the start, through every
 * entry its round had just deleted (a heap visit each, as they were not yet dead to every
 * transaction).
 */
export async function releaseAccounts(
  ctx: AppContext,
  owner: string,
  releases: readonly AccountRelease[],
): Promise<void> {
  if (releases.length === 0) return;
  const json = JSON.stringify(releases.map((r) => ({ account_id: r.accountId, at: r.at })));
  await runAgainOnDeadlock(() =>
    executePrepared(
      ctx.db,
      sql`
    UPDATE metric_collect_accounts AS a
    SET lease_owner = NULL, lease_expires_at = NULL, queued_due_at = NULL,
      next_due_at = least(r.next_due, a.queued_due_at)
    FROM (SELECT r.account_id, min(r.at) AS next_due
      FROM json_to_recordset(${json}::json) AS r(account_id text, at timestamptz)
      GROUP BY r.account_id) AS r
    WHERE a.account_id = r.account_id AND a.lease_owner = ${owner}`,
    ),
  );
}
