import type pg from 'pg';

/**
 * The floor of a schedule with no per-target row (docs/analytics.md, "What the collection goal
 * needs"): a mark per account (and step) of how far, in order of posting, its targets were
 * collected. Per round of ten accounts: one statement walks each account's next 100 collecting
 * targets past its mark (by an index on account, time of posting and post, which such a schedule
 * would add) with their old figures (the rollups' difference needs them), the same lookups as the
 * bare loop, and one statement inserts the history and moves the marks. No claim, lease, limiter,
 * credentials or rollups, as in the append-only floor: its ratio to the bare loop is the most such
 * a schedule allows a collector.
 */
export async function markScheduleFloor(
  pool: pg.Pool,
  accountIds: readonly string[],
  lookUp: (batch: readonly { platform_post_id: string }[]) => Promise<Map<string, Record<string, number>>>,
): Promise<void> {
  // The walk's index replaces the one by account and time of posting (which the planner otherwise
  // takes, sorting every target posted at the mark's instant again each round). The last loop.
  await pool.query(
    'CREATE INDEX bench_target_metrics_walk ON target_metrics (account_id, posted_at, post_id)',
  );
  await pool.query('DROP INDEX target_metrics_account_posted');
  await pool.query(
    `CREATE TABLE bench_marks (account_id text PRIMARY KEY, posted_at timestamptz NOT NULL DEFAULT '-infinity',
       post_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000')`,
  );
  await pool.query('INSERT INTO bench_marks (account_id) SELECT unnest($1::text[])', [accountIds]);
  await pool.query('ANALYZE target_metrics');
  // Accounts waiting for their next round, ten to a round, each back at the end until walked out.
  const waiting = [...accountIds];
  const worker = async () => {
    for (let accounts = waiting.splice(0, 10); accounts.length > 0; accounts = waiting.splice(0, 10)) {
      const { rows } = await pool.query<{
        post_id: string;
        account_id: string;
        posted_at: string;
        platform_post_id: string;
      }>(
        `SELECT t.post_id, t.account_id, t.posted_at::text AS posted_at, t.platform_post_id, s.metrics AS old
         FROM bench_marks m
         CROSS JOIN LATERAL (SELECT t.post_id, t.account_id, t.posted_at, t.platform_post_id FROM target_metrics t
           WHERE t.account_id = m.account_id AND (t.posted_at, t.post_id) > (m.posted_at, m.post_id)
             AND t.posted_at <= now() - interval '1 hour' AND t.state = 'collecting'
           ORDER BY t.posted_at, t.post_id LIMIT 100) AS t
         LEFT JOIN LATERAL (SELECT s.metrics FROM metric_snapshots s
           WHERE s.post_id = t.post_id AND s.account_id = t.account_id ORDER BY s.collected_at DESC LIMIT 1) AS s ON true
         WHERE m.account_id = ANY($1::text[])`,
        [accounts],
      );
      const byAccount = Map.groupBy(rows, (r) => r.account_id);
      const values = [];
      const marks = [];
      for (const [accountId, walked] of byAccount) {
        const figures = await lookUp(walked);
        for (const r of walked)
          values.push({
            post_id: r.post_id,
            account_id: accountId,
            metrics: figures.get(r.platform_post_id),
          });
        const last = walked.at(-1)!;
        marks.push({ account_id: accountId, posted_at: last.posted_at, post_id: last.post_id });
      }
      if (values.length === 0) continue;
      await pool.query(
        `WITH history AS (
           INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
           SELECT x.post_id, x.account_id, now(), x.metrics, (x.metrics->>'like_count')::int
           FROM json_to_recordset($1::json) AS x(post_id uuid, account_id text, metrics jsonb))
         UPDATE bench_marks AS m SET posted_at = k.posted_at, post_id = k.post_id
         FROM json_to_recordset($2::json) AS k(account_id text, posted_at timestamptz, post_id uuid)
         WHERE m.account_id = k.account_id`,
        [JSON.stringify(values), JSON.stringify(marks)],
      );
      waiting.push(...byAccount.keys());
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}
