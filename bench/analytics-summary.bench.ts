/**
 * The analytics summary (`getAnalyticsSummary`: totals, per account, per day, top posts) over
 * 1,000,000 metric rows (`BENCH_ROWS`; `--small`: 50,000) on PostgreSQL: one user, 10 X accounts,
 * targets posted evenly over the last 365 days, each with its figures (its latest history row in
 * `metric_snapshots`), `metric_rollups` (sums per account and quarter hour) and
 * `metric_rollups_hourly` (per hour), all kept by collection. Totals, per account and per day add
 * up the hourly rollups (the quarter hours for a timezone on a :30 or :45 offset, measured last)
 * through their (account_id, bucket) key; top posts find their hours through the hourly rollups'
 * highest engagement (`metric_rollups_hourly_top`) and read those hours' targets through
 * `target_metrics`' (account_id, posted_at) index, each one's figures by the history's key (its
 * latest row); the history is never scanned. Reports p50/p95 of the default 30-day range and of a 365-day range, in process (no HTTP).
 * Target: p95 ≤ 100 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { saveAccount } from '../web/server/accounts/save-account.ts';
import { getAnalyticsSummary } from '../web/server/analytics/get-summary.ts';
import { loadConfig } from '../web/server/config.ts';
import { createContext } from '../web/server/context.ts';
import { signUp } from '../web/server/users/sign-up.ts';
import { sessionWorkspace } from '../web/server/workspaces/membership.ts';
import { percentile, repoRoot } from './support/dispatch-setup.ts';
import { freshPostgres } from './support/postgres.ts';

const small = process.argv.includes('--small');
const todayDay = () => new Date().toISOString().slice(0, 10);
const yearAgoDay = () => new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
const rowCount = Number(process.env.BENCH_ROWS ?? (small ? 50_000 : 1_000_000));
const requests = Number(process.env.BENCH_REQUESTS ?? (small ? 30 : 200));

const database = await freshPostgres('postwave_bench_summary');
const dataDir = mkdtempSync(join(tmpdir(), 'postwave-bench-'));
const ctx = await createContext(
  loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    MIGRATIONS_DIR: join(repoRoot, 'drizzle'),
  }),
);
const db = new pg.Client({ connectionString: database.url });
await db.connect();
try {
  const user = await signUp(ctx, { email: 'bench-summary@example.com', password: 'benchmark password' });
  // Accounts and posts belong to the user's personal workspace (docs/workspaces.md).
  const { workspace } = await sessionWorkspace(ctx, user.id);
  const accountIds: string[] = [];
  for (let i = 0; i < 10; i++) {
    const { account } = await saveAccount(ctx, workspace.id, {
      platform: 'x',
      platformAccountId: String(2000 + i),
      credentials: { accessToken: `bench-${i}` },
      profile: { name: `Bench ${i}` },
    });
    accountIds.push(account.id);
  }
  const started = performance.now();
  // Posts, their targets and their figures, in chunks of 100,000.
  for (let from = 1; from <= rowCount; from += 100_000) {
    const to = Math.min(rowCount, from + 99_999);
    await db.query(
      `WITH g AS (
         SELECT gen_random_uuid() AS id, n, now() - make_interval(secs => (n::float8 / $3) * 365 * 86400) AS at
         FROM generate_series($1::int, $2::int) AS n),
       p AS (
         INSERT INTO posts (id, workspace_id, user_id, status, message, account_ids, media, account_options, created_at, updated_at, posted_at)
         SELECT id, $6::uuid, $4::uuid, 'posted', 'bench ' || n, '[]'::jsonb, '[]'::jsonb, '{}'::jsonb, at, at, at FROM g RETURNING id),
       t AS (
         INSERT INTO post_targets (post_id, account_id, platform, status, platform_post_id, attempts, updated_at)
         SELECT g.id, ($5::text[])[1 + n % 10], 'x', 'posted', n::text, 1, g.at FROM g RETURNING post_id),
       m AS (
         INSERT INTO target_metrics (post_id, account_id, platform, posted_at, state)
         SELECT g.id, ($5::text[])[1 + n % 10], 'x', g.at, 'done' FROM g)
       -- Each target's latest figures: its latest history row (one per target here).
       INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
       SELECT g.id, ($5::text[])[1 + n % 10], g.at,
         jsonb_build_object('impressions', n % 1000, 'likes', n % 37, 'comments', n % 7, 'reposts', n % 5, 'quotes', n % 3, 'saves', n % 4),
         n % 37 + n % 7 + n % 5 + n % 3 + n % 4
       FROM g`,
      [from, to, rowCount, user.id, accountIds, workspace.id],
    );
  }
  // The rollups collection keeps, built for the inserted rows at once (as a backfill would).
  const metricNames = [
    'impressions',
    'reach',
    'views',
    'likes',
    'comments',
    'reposts',
    'quotes',
    'shares',
    'saves',
    'clicks',
  ];
  await db.query(
    `INSERT INTO metric_rollups (account_id, bucket, posts, engagement, ${metricNames.join(', ')})
     SELECT m.account_id, to_timestamp(floor(extract(epoch FROM m.posted_at) / 900) * 900), count(*), sum(s.engagement),
       ${metricNames.map((m) => `sum((s.metrics->>'${m}')::bigint)`).join(', ')}
     FROM target_metrics m JOIN metric_snapshots s ON s.post_id = m.post_id AND s.account_id = m.account_id GROUP BY 1, 2`,
  );
  await db.query(
    `INSERT INTO metric_rollups_hourly (account_id, bucket, posts, engagement, ${metricNames.join(', ')}, top_engagement)
     SELECT r.account_id, r.bucket, r.posts, r.engagement, ${metricNames.map((m) => `r.${m}`).join(', ')}, t.top
     FROM (SELECT account_id, to_timestamp(floor(extract(epoch FROM bucket) / 3600) * 3600) AS bucket, sum(posts) AS posts,
         sum(engagement) AS engagement, ${metricNames.map((m) => `sum(${m}) AS ${m}`).join(', ')}
       FROM metric_rollups GROUP BY 1, 2) AS r
     -- Each hour's highest engagement, which top posts find their hours by (collection keeps it).
     JOIN (SELECT m.account_id, to_timestamp(floor(extract(epoch FROM m.posted_at) / 3600) * 3600) AS bucket,
         max(s.engagement) AS top
       FROM target_metrics m JOIN metric_snapshots s ON s.post_id = m.post_id AND s.account_id = m.account_id
       GROUP BY 1, 2) AS t ON t.account_id = r.account_id AND t.bucket = r.bucket`,
  );
  await db.query('ANALYZE');
  console.log(`inserted ${rowCount} metric rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  /** BENCH_EXPLAIN=1: the plans (EXPLAIN ANALYZE) of the statements one summary sends. */
  async function explain(query: URLSearchParams) {
    const sent: { text: string; values: unknown[] }[] = [];
    const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text: string; values?: unknown[] };
      if (typeof first === 'string') sent.push({ text: first, values: (args[1] as unknown[]) ?? [] });
      else sent.push({ text: first.text, values: first.values ?? (Array.isArray(args[1]) ? args[1] : []) });
      return original.apply(this, args);
    } as never;
    await getAnalyticsSummary(ctx, workspace.id, query);
    pg.Client.prototype.query = original as never;
    for (const { text, values } of sent) {
      if (!/^\s*(WITH|SELECT)/i.test(text)) continue;
      const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS OFF) ${text}`, values);
      console.log(`--- ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
      for (const row of plan.rows) console.log(String(row['QUERY PLAN']));
    }
  }

  async function measure(label: string, query: URLSearchParams) {
    for (let i = 0; i < 5; i++) await getAnalyticsSummary(ctx, workspace.id, query);
    // A summary without top posts would time less than one does (each hour's bound must be set).
    const { topPosts } = await getAnalyticsSummary(ctx, workspace.id, query);
    if (topPosts.length < 10) throw new Error(`${label}: ${topPosts.length} top posts, expected 10`);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      rows = (await getAnalyticsSummary(ctx, workspace.id, query)).totals.posts;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    if (label.startsWith('last 30 days, all'))
      console.log(
        `RATIO p95 / 100 ms = ${(percentile(times, 95) / 100).toFixed(2)} (goal ≤ 1; default range, all accounts; load ${loadavg()[0]!.toFixed(1)})`,
      );
    console.log(
      `${label} (${rows} targets): p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${requests} runs)`,
    );
  }
  if (process.env.BENCH_EXPLAIN) await explain(new URLSearchParams({ from: yearAgoDay(), to: todayDay() }));
  await measure('last 30 days, all accounts', new URLSearchParams());
  await measure(
    'last 30 days, 2 accounts',
    new URLSearchParams({ accountIds: accountIds.slice(0, 2).join(',') }),
  );
  await measure('365 days, all accounts', new URLSearchParams({ from: yearAgoDay(), to: todayDay() }));
  // Days that start at :30 UTC are whole quarter hours, not whole hours.
  await db.query(
    `UPDATE workspaces SET settings = settings || '{"timezone": "Asia/Kolkata"}' WHERE id = $1`,
    [workspace.id],
  );
  await measure('Asia/Kolkata (+5:30), last 30 days, all accounts', new URLSearchParams());
} finally {
  await db.end();
  await ctx.database.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
