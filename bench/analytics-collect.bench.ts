/**
 * Metrics collection for 100,000 posted targets (`BENCH_TARGETS`; `--small`: 5,000) on
 * PostgreSQL against a zero-latency X (100 ids per lookup), compared with a bare loop doing the
 * same work by hand: the same lookups with plain fetch, JSON parsing, and one multi-row INSERT per
 * answer. The collector adds claiming under leases, the limiter (its analytics scope, rate off as
 * `PUBLISH_RATE_X_ANALYTICS=off` allows), decrypting credentials, canonical names, engagement, the
 * latest-figures rollup and the history. Target: collector throughput ≥ 0.5 × the bare loop.
 * Beside each loop's time: CPU per target of this process (the fake X included, for both) and of
 * the database's server processes, which a loaded machine does not inflate as it does times.
 * `BENCH_MARKS=1` prints the phases' edges on the clock `--cpu-prof` samples carry.
 *
 * A third loop, the floor, does only what the append-only collection must write: the same
 * lookups, and per ten answers one statement taking those targets' schedule entries and inserting
 * their history and next entries. No claim, lease, limiter, credentials or rollups: its ratio to
 * the bare loop is the most this storage layout allows a collector. A fourth, the mark-schedule
 * floor (./support/mark-schedule-floor.ts), does the same for a schedule with no per-target row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { saveAccount } from '../web/server/accounts/save-account.ts';
import { collectDueMetrics } from '../web/server/analytics/collect-metrics.ts';
import { enrollPostedTargets } from '../web/server/analytics/collect-repository.ts';
import { collectingPlatforms } from '../web/server/analytics/enrollment.ts';
import { loadConfig } from '../web/server/config.ts';
import { createContext } from '../web/server/context.ts';
import { signUp } from '../web/server/users/sign-up.ts';
import { sessionWorkspace } from '../web/server/workspaces/membership.ts';
import { countStatements } from './support/count-statements.ts';
import { processCpuUs } from './support/cpu.ts';
import { repoRoot } from './support/dispatch-setup.ts';
import { markScheduleFloor } from './support/mark-schedule-floor.ts';
import { freshPostgres } from './support/postgres.ts';
import { startZeroLatencyX } from './support/zero-latency-x.ts';

const small = process.argv.includes('--small');
const targets = Number(process.env.BENCH_TARGETS ?? (small ? 5_000 : 100_000));
const accountCount = Number(process.env.BENCH_ACCOUNTS ?? 100);

/** This process's CPU (user + system, µs) since `start`. */
const cpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return used.user + used.system;
};
/**
 * CPU (µs) used so far by this database's server processes, so the database's share of each loop's
 * work is seen beside this process's; 0 where /proc is not readable.
 */
const databaseCpuUs = async (db: pg.Client) => {
  const { rows } = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  return rows.reduce((us, { pid }) => us + processCpuUs(pid), 0);
};
const perTarget = (us: number, n: number) => `${(us / n).toFixed(1)} µs`;
/** With BENCH_MARKS set, the monotonic clock (µs, as CPU profiles stamp samples) at a phase's edge. */
const mark = (what: string) => {
  if (process.env.BENCH_MARKS) console.log(`mark ${what} ${process.hrtime.bigint() / 1000n}`);
};

const x = await startZeroLatencyX();
const database = await freshPostgres('postwave_bench_analytics');
const dataDir = mkdtempSync(join(tmpdir(), 'postwave-bench-'));
const ctx = await createContext(
  loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    MIGRATIONS_DIR: join(repoRoot, 'drizzle'),
    X_API_URL: x.url,
    PUBLISH_RATE_X_ANALYTICS: 'off',
    ANALYTICS_CONCURRENCY: '8',
  }),
);
const db = new pg.Client({ connectionString: database.url });
await db.connect();
try {
  const user = await signUp(ctx, { email: 'bench-analytics@example.com', password: 'benchmark password' });
  // Accounts and posts belong to the user's personal workspace (docs/workspaces.md).
  const { workspace } = await sessionWorkspace(ctx, user.id);
  const accountIds: string[] = [];
  for (let i = 0; i < accountCount; i++) {
    const { account } = await saveAccount(ctx, workspace.id, {
      platform: 'x',
      platformAccountId: String(1000 + i),
      credentials: { accessToken: `bench-token-${i}` },
      profile: { name: `Bench ${i}` },
    });
    accountIds.push(account.id);
  }
  // One post per target, each posted to one account, an hour and a half ago (the +1 h collection is due).
  await db.query(
    `WITH p AS (
       INSERT INTO posts (id, workspace_id, user_id, status, message, account_ids, media, account_options, created_at, updated_at, posted_at)
       SELECT gen_random_uuid(), $5::uuid, $1::uuid, 'posted', 'bench ' || g, '[]'::jsonb, '[]'::jsonb, '{}'::jsonb,
         now() - interval '90 minutes', now() - interval '90 minutes', now() - interval '90 minutes'
       FROM generate_series(1, $2::int) AS g
       RETURNING id, message)
     INSERT INTO post_targets (post_id, account_id, platform, status, platform_post_id, attempts, updated_at)
     SELECT p.id, ($3::text[])[1 + (split_part(p.message, ' ', 2)::int % $4::int)], 'x', 'posted',
       (1850000000000000000 + split_part(p.message, ' ', 2)::bigint)::text, 1, now() - interval '90 minutes'
     FROM p`,
    [user.id, targets, accountIds, accountCount, workspace.id],
  );
  console.log(`${targets} posted targets over ${accountCount} X accounts`);

  const enrollStarted = performance.now();
  const enrolled = await enrollPostedTargets(ctx, collectingPlatforms(ctx).posts, 3_600_000);
  console.log(`enrolled ${enrolled} targets in ${((performance.now() - enrollStarted) / 1000).toFixed(2)} s`);

  // The bulk load settled as autovacuum would settle it (statistics, visibility), before either
  // loop is timed: otherwise its first pass over 100,000 new rows lands in one loop or the other.
  await db.query('VACUUM ANALYZE');
  const counter = countStatements();
  const collectDbCpu = await databaseCpuUs(db);
  counter.start();
  mark('collect-start');
  const collectCpu = process.cpuUsage();
  const collectStarted = performance.now();
  const summary = await collectDueMetrics(ctx, {
    owner: 'bench',
    batch: 1000,
    concurrency: 8,
    maxRounds: 1_000_000,
  });
  const collectMs = performance.now() - collectStarted;
  const collectCpuUs = cpuSince(collectCpu);
  mark('collect-end');
  counter.stop();
  const collectDbCpuUs = (await databaseCpuUs(db)) - collectDbCpu;
  console.log(counter.report(targets, 'target'));
  if (summary.collected !== targets) throw new Error(`collected ${summary.collected} of ${targets}`);
  console.log(
    `collector: ${summary.collected} targets in ${(collectMs / 1000).toFixed(2)} s (${Math.round((targets / collectMs) * 1000)}/s), CPU per target ${perTarget(collectCpuUs, targets)} here + ${perTarget(collectDbCpuUs, targets)} database`,
  );

  // The bare loop: the same lookups and one INSERT per answer, 8 at a time, nothing else.
  await db.query(
    'CREATE TABLE bare_snapshots (post_id uuid, account_id text, collected_at timestamptz, metrics jsonb)',
  );
  const rows = (
    await db.query<{ post_id: string; account_id: string; platform_post_id: string }>(
      'SELECT post_id, account_id, platform_post_id FROM post_targets ORDER BY account_id',
    )
  ).rows;
  const pool = new pg.Pool({ connectionString: database.url, max: 8 });
  // A connection still closing when the database is dropped answers "terminating connection":
  // not this loop's failure, and without a listener it would crash the run after its figures.
  pool.on('error', () => {});
  // Up to 100 ids per lookup of one account's posts, as the collector must ask (each account's
  // lookups go with its own token): with 50 posts per account (`--small`), 50 ids a lookup.
  const batches: (typeof rows)[] = [];
  for (const ofAccount of Map.groupBy(rows, (r) => r.account_id).values())
    for (let i = 0; i < ofAccount.length; i += 100) batches.push(ofAccount.slice(i, i + 100));
  const floorBatches = [...batches];
  const bareDbCpu = await databaseCpuUs(db);
  mark('bare-start');
  /** One lookup of up to 100 posts: their figures by id. */
  const lookUp = async (batch: readonly { platform_post_id: string }[]) => {
    const answer = (await (
      await fetch(
        `${x.url}/2/tweets?ids=${batch.map((r) => r.platform_post_id).join(',')}&tweet.fields=public_metrics`,
        { headers: { authorization: 'Bearer bench' } },
      )
    ).json()) as { data: { id: string; public_metrics: Record<string, number> }[] };
    return new Map(answer.data.map((d) => [d.id, d.public_metrics]));
  };
  const bareCpu = process.cpuUsage();
  const bareStarted = performance.now();
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      const byId = await lookUp(batch);
      const values = batch.map((r) => ({
        post_id: r.post_id,
        account_id: r.account_id,
        metrics: byId.get(r.platform_post_id),
      }));
      await pool.query(
        `INSERT INTO bare_snapshots SELECT post_id, account_id, now(), metrics
         FROM jsonb_to_recordset($1::jsonb) AS x(post_id uuid, account_id text, metrics jsonb)`,
        [JSON.stringify(values)],
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const bareMs = performance.now() - bareStarted;
  const bareCpuUs = cpuSince(bareCpu);
  mark('bare-end');
  // Read before the pool ends: its connections' server processes go with it.
  const bareDbCpuUs = (await databaseCpuUs(db)) - bareDbCpu;
  console.log(
    `bare loop: ${rows.length} targets in ${(bareMs / 1000).toFixed(2)} s (${Math.round((rows.length / bareMs) * 1000)}/s), CPU per target ${perTarget(bareCpuUs, rows.length)} here + ${perTarget(bareDbCpuUs, rows.length)} database`,
  );

  // The floor: the same lookups, ten answers (1,000 targets, a collector's round) per statement
  // that takes their schedule entries, inserts their history and their next entries, as the
  // outcome write must at least.
  const entries = new Map(
    (
      await db.query<{ post_id: string; due_at: string }>(
        'SELECT post_id, due_at::text AS due_at FROM metric_due',
      )
    ).rows.map((e) => [e.post_id, e.due_at]),
  );
  const floorDbCpu = await databaseCpuUs(db);
  const floorCpu = process.cpuUsage();
  const floorStarted = performance.now();
  const floorWorker = async () => {
    for (let group = floorBatches.splice(0, 10); group.length > 0; group = floorBatches.splice(0, 10)) {
      const values = [];
      for (const batch of group) {
        const figures = await lookUp(batch);
        values.push(
          ...batch.map((r) => ({
            ...r,
            due_at: entries.get(r.post_id),
            metrics: figures.get(r.platform_post_id),
          })),
        );
      }
      await pool.query(
        `WITH x AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(post_id uuid, account_id text, due_at timestamptz, metrics jsonb)),
         taken AS (
           DELETE FROM metric_due d USING x
           WHERE d.account_id = x.account_id AND d.due_at = x.due_at AND d.post_id = x.post_id
           RETURNING d.*, x.metrics AS figures),
         history AS (
           INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
           SELECT post_id, account_id, now(), figures, (figures->>'like_count')::int FROM taken)
         INSERT INTO metric_due (account_id, due_at, post_id, step, posted_at, metrics, engagement)
         SELECT account_id, due_at + interval '5 hours', post_id, step + 1, posted_at, figures, (figures->>'like_count')::int
         FROM taken`,
        [JSON.stringify(values)],
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, floorWorker));
  const floorMs = performance.now() - floorStarted;
  const floorCpuUs = cpuSince(floorCpu);
  const floorDbCpuUs = (await databaseCpuUs(db)) - floorDbCpu;
  console.log(
    `floor loop: ${rows.length} targets in ${(floorMs / 1000).toFixed(2)} s, CPU per target ${perTarget(floorCpuUs, rows.length)} here + ${perTarget(floorDbCpuUs, rows.length)} database; floor / bare loop = ${(bareMs / floorMs).toFixed(2)} × (the most this storage allows)`,
  );

  // The floor of a schedule with no per-target row (marks per account), for comparison.
  const marksDbCpu = await databaseCpuUs(db);
  const marksCpu = process.cpuUsage();
  const marksStarted = performance.now();
  await markScheduleFloor(pool, accountIds, lookUp);
  const marksMs = performance.now() - marksStarted;
  const marksCpuUs = cpuSince(marksCpu);
  const marksDbCpuUs = (await databaseCpuUs(db)) - marksDbCpu;
  await pool.end();
  console.log(
    `mark-schedule floor: ${rows.length} targets in ${(marksMs / 1000).toFixed(2)} s, CPU per target ${perTarget(marksCpuUs, rows.length)} here + ${perTarget(marksDbCpuUs, rows.length)} database; floor / bare loop = ${(bareMs / marksMs).toFixed(2)} × (the most a schedule without per-target rows allows)`,
  );
  console.log(
    `RATIO collector / bare loop = ${(bareMs / collectMs).toFixed(2)} × (goal ≥ 0.5; load ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  await db.end();
  await ctx.database.close();
  await database.drop();
  await x.close();
  rmSync(dataDir, { recursive: true, force: true });
}
