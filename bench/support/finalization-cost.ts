/**
 * What the dispatcher's finalizing statement costs the database per post, alone: the statement is
 * in flight most of a dispatch run (docs/dispatch.md, "Where a dispatched post waits, and what it
 * says"), so its cost per post is worth knowing apart from the rest.
 * Posts in batches of BENCH_BATCH (default 37, as the throughput bench's) are leased with a
 * `publishing` target each, then finalized to `posted` with their target's result, as the
 * dispatcher does; the CPU of the database's sessions (/proc) is read around the finalizations
 * only, per round (BENCH_ROUNDS, default 6; BENCH_BATCHES statements a round, default 60). This
 * machine's figures move by a fifth from one round to the next: compare medians, alternating runs
 * with a worktree of the code before a change.
 * `node bench/support/finalization-cost.ts` (PostgreSQL, DATABASE_URL or local).
 */
import pg from 'pg';
import { finalizeOptions } from '../../web/server/posts/finalize-options.ts';
import { finalizePosts } from '../../web/server/posts/repository.ts';
import { processCpuUs } from './cpu.ts';
import { insertDue, setUp } from './dispatch-setup.ts';

const batch = Number(process.env.BENCH_BATCH ?? 37);
const batchesPerRound = Number(process.env.BENCH_BATCHES ?? 60);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);

const setup = await setUp('postgres', 'http://127.0.0.1:9', { telegram: 50 });
const client = new pg.Client({ connectionString: setup.env.DATABASE_URL });
await client.connect();
const options = finalizeOptions(setup.ctx);
const owner = 'finalization-cost';
const perPost: number[] = [];

/** Posts leased by `owner`, each with its one target `publishing`, as the dispatcher leaves them. */
async function leasedPosts(count: number): Promise<string[]> {
  const ids = await insertDue(setup, count, 'finalize', { owner });
  await client.query(
    `INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at)
     SELECT id, account_ids->>0, 'telegram', 'publishing', $2, 1, now() FROM posts WHERE id = ANY($1::uuid[])`,
    [ids, owner],
  );
  return ids;
}

/**
 * CPU (µs) of the sessions connected to the bench's database: the pool's, which run the
 * statements and their triggers, and this client's, which is idle meanwhile. Autovacuum and the
 * checkpointer are left out: what they do depends on when they wake, not on the statement.
 */
async function backendsCpuUs(): Promise<number> {
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`,
  );
  return rows.reduce((sum, r) => sum + processCpuUs(r.pid), 0);
}

for (let round = 0; round < rounds; round++) {
  const ids = await leasedPosts(batch * batchesPerRound);
  // Nothing left for autovacuum to do during the window, whose CPU would count otherwise.
  await client.query('VACUUM ANALYZE');
  await client.query('CHECKPOINT');
  const before = await backendsCpuUs();
  for (let b = 0; b < batchesPerRound; b++) {
    const items = ids.slice(b * batch, (b + 1) * batch).map((postId, i) => ({
      postId,
      owner,
      status: 'posted' as const,
      nextAttemptAt: null,
      deferred: {
        accountId: setup.telegram[(b * batch + i) % 50]!.id,
        platform: 'telegram' as const,
        status: 'posted' as const,
        platformPostId: `${b}-${i}`,
        url: `https://t.me/c/1/${b}${i}`,
      },
    }));
    const answers = await finalizePosts(setup.ctx, items, options);
    if (answers.some((a) => a?.status !== 'posted')) throw new Error('a post was not finalized');
  }
  const us = ((await backendsCpuUs()) - before) / ids.length;
  perPost.push(us);
  console.log(`round ${round + 1}: ${us.toFixed(0)} µs of the database's CPU per post`);
}
const sorted = [...perPost].sort((a, b) => a - b);
console.log(
  `finalizing ${batch} posts a statement: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} µs of the database's CPU per post (${sorted.map((f) => f.toFixed(0)).join(', ')})`,
);
await client.end();
await setup.close();
