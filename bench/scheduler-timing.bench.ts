/**
 * Punctuality and speed of scheduled posts, timed at the fake platform's receipt (docs/dispatch.md):
 * - posts due at distinct seconds → lateness p50/p99/max (goal p99 ≤ 1 s, aim 250 ms);
 * - a burst of 1,000 due at one instant over 50 accounts → when the last one arrived (goal ≤ 3 s);
 *   both on PGlite (the embedded default, one process) and on PostgreSQL with 4 dispatcher
 *   processes. Posts are scheduled through the posts service, as the API does, so the wake-up
 *   path (in-process event, NOTIFY) is what gets measured. The fake applies no rate limit of its
 *   own, so every wait reported here is ours.
 * - throughput against a zero-latency fake, one instance on PostgreSQL: the dispatcher beside a
 *   bare loop doing the same work and nothing else, in the same run (claim 200 due posts in one
 *   statement, send each over keep-alive HTTP with 64 in flight, complete the batch in one statement).
 * - limits across instances (item 5): 4 dispatcher processes on PostgreSQL publish a burst over 50
 *   chats of 5 bots (200 posts per bot by default) with Telegram's bot rate on (30 a second per
 *   bot, kept in the database); the fake reports, per bot, the most sends within any second and
 *   in flight at once, and the run's throughput with the limits on. The throughput run above
 *   measures the machine, so it turns platform rates off (PUBLISH_RATE_TELEGRAM_BOT=off).
 * Env: BENCH_ONLY=timing|throughput|limits, BENCH_LIMIT_POSTS (default 1000), BENCH_SECONDS (distinct-second posts, default 20),
 * BENCH_BURST (default 1000), BENCH_POSTS (throughput, default 10000), BENCH_ROUNDS (throughput, alternated
 * bare/dispatcher rounds, default 3), BENCH_DISPATCH_CONCURRENCY (throughput, default 64, as the bare loop), BENCH_QUICK (PGlite timing only); `--small`: the throughput
 * comparison alone, 2 rounds of 2,000 posts (prints `RATIO ...`).
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import pg from 'pg';
import { posts } from '../web/server/db/schema.ts';
import { Dispatcher } from '../web/server/dispatch/dispatcher.ts';
import { dispatchDuePosts, dispatchOptions } from '../web/server/dispatch/service.ts';
import { announceDue } from '../web/server/dispatch/wakeups.ts';
import { createPost } from '../web/server/posts/create-post.ts';
import { postgresCpuUs, processCpuUs } from './support/cpu.ts';
import {
  type FakePlatform,
  insertDue,
  percentile,
  type Setup,
  setUp,
  startDispatcherProcess,
  startFakePlatform,
  stopProcess,
  until,
} from './support/dispatch-setup.ts';

const only = process.argv.includes('--small') ? 'throughput' : process.env.BENCH_ONLY;
const secondsCount = Number(process.env.BENCH_SECONDS ?? 20);
const burstCount = Number(process.env.BENCH_BURST ?? 1000);
// --small: the throughput comparison alone, small enough for a busy machine (under two minutes).
const small = process.argv.includes('--small');
const throughputPosts = Number(process.env.BENCH_POSTS ?? (small ? 2_000 : 10_000));
const throughputRounds = Number(process.env.BENCH_ROUNDS ?? (small ? 2 : 3));
const accountsCount = 50;

const fmt = (ms: number) => `${Math.round(ms)} ms`;

async function schedule(setup: Setup, message: string, accountId: string, at: Date): Promise<void> {
  await createPost(setup.ctx, setup.workspaceId, {
    message,
    accountIds: [accountId],
    postingMode: 'schedule',
    media: [],
    accountOptions: {},
    scheduledAt: at,
  });
}

/** Distinct seconds, then a burst; the dispatchers (in-process or processes) are already running. */
async function timing(label: string, setup: Setup, platform: FakePlatform): Promise<void> {
  await platform.reset();
  const accounts = setup.telegram;
  const start = Date.now() + 1500;
  for (let i = 0; i < secondsCount; i++) {
    // Due at a distinct second, off the whole second (as people pick times), scheduled just ahead.
    const at = new Date(start + i * 1000 + Math.floor(Math.random() * 1000));
    await schedule(setup, `due:${at.getTime()}:seconds ${i}`, accounts[i % accounts.length]!.id, at);
  }
  await until(
    async () => (await platform.stats()).telegram.distinct >= secondsCount,
    secondsCount * 1000 + 15_000,
  );
  let stats = await platform.stats();
  const seconds = [...stats.lateness].sort((a, b) => a - b);
  console.log(
    `${label}: ${seconds.length}/${secondsCount} posts due at distinct seconds → lateness p50 ${fmt(percentile(seconds, 50))}, ` +
      `p99 ${fmt(percentile(seconds, 99))}, max ${fmt(seconds.at(-1)!)}, early ${seconds.filter((l) => l < 0).length}`,
  );

  // The burst: scheduled in bulk for one instant a few seconds ahead, then announced once.
  await platform.reset();
  const due = new Date(Date.now() + 4000);
  const rows = Array.from({ length: burstCount }, (_, i) => ({
    id: crypto.randomUUID(),
    workspaceId: setup.workspaceId,
    userId: setup.userId,
    status: 'scheduled' as const,
    message: `due:${due.getTime()}:burst ${i}`,
    accountIds: [accounts[i % accounts.length]!.id],
    media: [],
    accountOptions: {},
    scheduledAt: due,
    nextAttemptAt: due,
    createdAt: new Date(),
    updatedAt: new Date(),
  }));
  for (let i = 0; i < rows.length; i += 500) await setup.ctx.db.insert(posts).values(rows.slice(i, i + 500));
  await announceDue(setup.ctx, due);
  await until(async () => (await platform.stats()).telegram.distinct >= burstCount, 30_000, 100);
  stats = await platform.stats();
  const burst = [...stats.lateness].sort((a, b) => a - b);
  console.log(
    `${label}: burst of ${burstCount} due at one instant over ${accounts.length} accounts → first ${fmt(burst[0]!)}, ` +
      `p50 ${fmt(percentile(burst, 50))}, last ${fmt(burst.at(-1)!)} after the due time ` +
      `(received ${burst.length}, duplicates ${stats.telegram.duplicates}, early ${burst.filter((l) => l < 0).length}; ` +
      'platform rate-limit waits: none, the fake imposes no limit)',
  );
  if (stats.telegram.duplicates > 0 || burst.some((l) => l < 0) || seconds.some((l) => l < 0))
    process.exitCode = 1;
}

async function timingOnPglite(platform: FakePlatform): Promise<void> {
  const setup = await setUp('pglite', platform.url, { telegram: accountsCount });
  const dispatcher = new Dispatcher(setup.ctx, {
    ...dispatchOptions(setup.ctx),
    intervalMs: setup.ctx.config.dispatcher.intervalMs,
  });
  dispatcher.start();
  try {
    await timing('PGlite, embedded dispatcher', setup, platform);
  } finally {
    await dispatcher.stop();
    await setup.close();
  }
}

async function timingOnPostgres(platform: FakePlatform): Promise<void> {
  const setup = await setUp('postgres', platform.url, { telegram: accountsCount });
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < 4; i++) children.push(await startDispatcherProcess(setup.env));
    await timing('PostgreSQL, 4 dispatcher processes', setup, platform);
  } finally {
    await Promise.all(children.map(stopProcess));
    await setup.close();
  }
}

/**
 * The same work as the dispatcher with nothing else: the machine's limit for this path. Kept lean
 * on purpose (it is the baseline): one raw `pg` connection, one statement claims 200 due rows, each
 * is sent over a keep-alive `node:http` agent with 64 in flight, one statement completes the batch.
 */
async function bareLoop(setup: Setup, platformUrl: string, count: number): Promise<number> {
  const client = new pg.Client({ connectionString: setup.env.DATABASE_URL });
  await client.connect();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const { hostname, port } = new URL(platformUrl);
  const tokens = new Map(setup.telegram.map((a) => [a.id, a]));
  const send = (path: string, body: string) =>
    new Promise<string>((resolve, reject) => {
      const request = http.request(
        {
          agent,
          hostname,
          port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => resolve(text));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const started = performance.now();
  let sent = 0;
  try {
    for (;;) {
      const claimed = await client.query<{ id: string; message: string; account_ids: string[] }>(`
        WITH due AS (
          SELECT id FROM posts WHERE status = 'scheduled' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT 200 FOR UPDATE SKIP LOCKED)
        UPDATE posts p SET lease_owner = 'bare', lease_expires_at = now() + interval '5 minutes',
          next_attempt_at = now() + interval '5 minutes', attempts = p.attempts + 1
        FROM due WHERE p.id = due.id RETURNING p.id, p.message, p.account_ids`);
      const rows = claimed.rows;
      if (rows.length === 0) break;
      const ids: string[] = [];
      const accounts: string[] = [];
      const messageIds: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          const account = tokens.get(row.account_ids[0]!)!;
          const text = await send(
            `/bot${account.botToken}/sendMessage`,
            JSON.stringify({ chat_id: account.chat, text: row.message }),
          );
          const body = JSON.parse(text) as { result: { message_id: number } };
          ids.push(row.id);
          accounts.push(account.id);
          messageIds.push(String(body.result.message_id));
        }
      };
      await Promise.all(Array.from({ length: 64 }, worker));
      await client.query(
        `WITH r AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS r(id, account_id, message_id)),
          t AS (INSERT INTO post_targets (post_id, account_id, platform, status, platform_post_id, claim_owner, attempts, updated_at)
            SELECT id, account_id, 'telegram', 'posted', message_id, 'bare', 1, now() FROM r)
        UPDATE posts p SET status = 'posted', posted_at = now(), lease_owner = NULL, lease_expires_at = NULL,
          updated_at = now() FROM r WHERE p.id = r.id`,
        [ids, accounts, messageIds],
      );
      sent += ids.length;
    }
  } finally {
    agent.destroy();
    await client.end();
  }
  if (sent !== count) throw new Error(`bare loop sent ${sent} of ${count}`);
  return count / ((performance.now() - started) / 1000);
}

async function throughput(platform: FakePlatform): Promise<void> {
  const setup = await setUp(
    'postgres',
    platform.url,
    { telegram: accountsCount },
    // The machine's speed, not the platform's: no platform rate limit here (see `limits`).
    {
      DISPATCH_CONCURRENCY: process.env.BENCH_DISPATCH_CONCURRENCY ?? '64',
      PUBLISH_RATE_TELEGRAM_BOT: 'off',
    },
  );
  try {
    // Alternated, so a change in the machine's load between the two runs shows in the spread
    // rather than in the ratio; the ratio reported is of the totals.
    let bareSeconds = 0;
    let dispatcherSeconds = 0;
    // This process's CPU time per post (user + system), the figure a busy machine bends least,
    // and beside it the CPU of the database's processes and of the fake.
    type Cpu = { here: number; database: number; fake: number };
    const bareCpu: Cpu = { here: 0, database: 0, fake: 0 };
    const dispatcherCpu: Cpu = { here: 0, database: 0, fake: 0 };
    const cpu = (): Cpu => {
      const { user, system } = process.cpuUsage();
      return { here: user + system, database: postgresCpuUs(), fake: processCpuUs(platform.pid) };
    };
    const addSince = (sum: Cpu, before: Cpu) => {
      const now = cpu();
      for (const side of ['here', 'database', 'fake'] as const) sum[side] += now[side] - before[side];
    };
    let posted = 0;
    let duplicates = 0;
    const rounds: string[] = [];
    for (let round = 0; round < throughputRounds; round++) {
      await insertDue(setup, throughputPosts, `bare ${round}`);
      let before = cpu();
      const bare = await bareLoop(setup, platform.url, throughputPosts);
      addSince(bareCpu, before);
      bareSeconds += throughputPosts / bare;

      await platform.reset();
      await insertDue(setup, throughputPosts, `dispatcher ${round}`);
      before = cpu();
      const started = performance.now();
      let roundPosted = 0;
      for (;;) {
        const summary = await dispatchDuePosts(setup.ctx, {
          ...dispatchOptions(setup.ctx),
          timeBudgetMs: 60_000,
        });
        roundPosted += summary.posted;
        if (summary.claimed === 0) break;
      }
      const seconds = (performance.now() - started) / 1000;
      addSince(dispatcherCpu, before);
      dispatcherSeconds += seconds;
      posted += roundPosted;
      duplicates += (await platform.stats()).telegram.duplicates;
      rounds.push(`${(roundPosted / seconds).toFixed(0)} vs ${bare.toFixed(0)}`);
      if (roundPosted !== throughputPosts) process.exitCode = 1;
    }
    const total = throughputPosts * throughputRounds;
    const rate = posted / dispatcherSeconds;
    const bare = total / bareSeconds;
    console.log(
      `throughput, zero-latency fake, 1 instance on PostgreSQL, ${throughputRounds} × ${throughputPosts} posts over ${accountsCount} accounts: ` +
        `dispatcher ${rate.toFixed(0)} posts/s, bare loop ${bare.toFixed(0)} posts/s (rounds, posts/s: ${rounds.join('; ')}; load ${loadavg()[0]!.toFixed(1)})`,
    );
    console.log(
      `RATIO dispatcher / bare loop = ${(rate / bare).toFixed(2)} × (goal ≥ 0.5; posted ${posted} of ${total}, duplicates ${duplicates})`,
    );
    const perPost = (us: number) => `${(us / total).toFixed(0)} µs`;
    console.log(
      `CPU of this process per post: dispatcher ${perPost(dispatcherCpu.here)}, bare loop ${perPost(bareCpu.here)} ` +
        `→ bare / dispatcher = ${(bareCpu.here / dispatcherCpu.here).toFixed(2)} × (what the rate ratio tends to where this process's CPU is the limit)`,
    );
    console.log(
      `CPU per post of the database: dispatcher ${perPost(dispatcherCpu.database)}, bare loop ${perPost(bareCpu.database)}; ` +
        `of the fake platform: dispatcher ${perPost(dispatcherCpu.fake)}, bare loop ${perPost(bareCpu.fake)}`,
    );
    if (duplicates > 0) process.exitCode = 1;
  } finally {
    await setup.close();
  }
}

/** Item 5: limits shared by 4 dispatcher processes, as the fake platform observes them. */
async function limitsOnPostgres(platform: FakePlatform): Promise<void> {
  const count = Number(process.env.BENCH_LIMIT_POSTS ?? 1000);
  const botsCount = 5;
  const rate = 30;
  // Rate grants are timed at the database; the fake counts on receipt. On a loaded machine the
  // jitter between the two exceeds the default 100 ms margin (see docs/dispatch.md).
  const margin = process.env.PUBLISH_LIMITS_RATE_MARGIN_MS ?? '300';
  const setup = await setUp(
    'postgres',
    platform.url,
    { telegram: accountsCount, bots: botsCount },
    { PUBLISH_LIMITS_RATE_MARGIN_MS: margin },
  );
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < 4; i++) children.push(await startDispatcherProcess(setup.env));
    await platform.reset();
    const due = new Date(Date.now() + 3000);
    const rows = Array.from({ length: count }, (_, i) => ({
      id: crypto.randomUUID(),
      workspaceId: setup.workspaceId,
      userId: setup.userId,
      status: 'scheduled' as const,
      message: `due:${due.getTime()}:limited ${i}`,
      accountIds: [setup.telegram[i % setup.telegram.length]!.id],
      media: [],
      accountOptions: {},
      scheduledAt: due,
      nextAttemptAt: due,
      createdAt: new Date(),
      updatedAt: new Date(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await setup.ctx.db.insert(posts).values(rows.slice(i, i + 500));
    await announceDue(setup.ctx, due);
    await until(async () => (await platform.stats()).telegram.distinct >= count, 120_000, 200);
    const stats = await platform.stats();
    const sorted = [...stats.lateness].sort((a, b) => a - b);
    const perBot = Object.values(stats.bots);
    const maxPerSecond = Math.max(...perBot.map((b) => b.maxPerSecond));
    const peak = Math.max(...perBot.map((b) => b.peakConcurrent));
    // The platform's own floor: n sends at `rate` a second need (ceil(n / rate) - 1) s after the first.
    const perBotPosts = Math.ceil(count / botsCount);
    const platformWait = (Math.ceil(perBotPosts / rate) - 1) * 1000;
    const last = sorted.at(-1)!;
    console.log(
      `PostgreSQL, 4 dispatcher processes, limits on: ${sorted.length}/${count} posts over ${accountsCount} chats of ${botsCount} bots ` +
        `(${perBotPosts} per bot, limit ${rate}/s and 30 in flight per bot, margin ${margin} ms) → per bot at the fake: max ${maxPerSecond} within any second ` +
        `[${perBot.map((b) => b.maxPerSecond).join(', ')}], max ${peak} in flight; last out ${fmt(last)} after the due time, ` +
        `of which the platform's rate accounts for ${fmt(platformWait)} and ours ${fmt(last - platformWait)}; ` +
        `throughput with limits on ${(sorted.length / (Math.max(1, last - sorted[0]!) / 1000)).toFixed(0)} posts/s ` +
        `(the bots' ceiling ${botsCount * rate}/s; duplicates ${stats.telegram.duplicates})`,
    );
    if (maxPerSecond > rate || stats.telegram.duplicates > 0 || sorted.length < count) process.exitCode = 1;
  } finally {
    await Promise.all(children.map(stopProcess));
    await setup.close();
  }
}

const timed = await startFakePlatform({
  BENCH_PLATFORM_DELAY_MS: process.env.BENCH_PLATFORM_DELAY_MS ?? '20',
});
const instant = await startFakePlatform({ BENCH_PLATFORM_DELAY_MS: '0' });
try {
  if (only === undefined || only === 'timing') {
    await timingOnPglite(timed);
    if (!process.env.BENCH_QUICK) await timingOnPostgres(timed);
  }
  if (only === undefined || only === 'limits') await limitsOnPostgres(timed);
  if (only === undefined || only === 'throughput') await throughput(instant);
} finally {
  timed.stop();
  instant.stop();
}
