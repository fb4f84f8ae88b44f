/**
 * Exactly once across crashes (docs/dispatch.md): 4 dispatcher processes over 10,000 due posts on
 * PostgreSQL, half to Telegram-like accounts (no dedupe: an interrupted send becomes `unknown`)
 * and half to Mastodon-like ones (`Idempotency-Key`: an interrupted send is resumed). One process
 * is killed with SIGKILL at a random moment three times (and replaced). The platform answers
 * after 0-40 ms, so sends are in flight when the blow lands. Prints duplicates at the fake per
 * platform (must be 0), lost targets (must be 0) and how targets ended (posted, failed, unknown).
 * Env: BENCH_POSTS (default 10000), BENCH_KILLS (default 3).
 */
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { posts } from '../web/server/db/schema.ts';
import { announceDue } from '../web/server/dispatch/wakeups.ts';
import {
  setUp,
  startDispatcherProcess,
  startFakePlatform,
  stopProcess,
  until,
} from './support/dispatch-setup.ts';

const postCount = Number(process.env.BENCH_POSTS ?? 10_000);
const kills = Number(process.env.BENCH_KILLS ?? 3);
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const platform = await startFakePlatform({ BENCH_PLATFORM_DELAY_MS: '0', BENCH_PLATFORM_JITTER_MS: '40' });
const setup = await setUp(
  'postgres',
  platform.url,
  { telegram: 25, mastodon: 25 },
  // A killed dispatcher's leases come back within seconds; the safety-net poll notices them.
  { DISPATCH_LEASE_MS: '10000', DISPATCHER_INTERVAL_MS: '1000' },
);
const children: ChildProcess[] = [];
try {
  // Started first (a process takes seconds to load on a busy machine); the posts wake them.
  for (let i = 0; i < 4; i++) children.push(await startDispatcherProcess(setup.env));
  const accounts = [...setup.telegram.map((a) => a.id), ...setup.mastodon.map((a) => a.id)];
  const now = Date.now();
  const rows = Array.from({ length: postCount }, (_, i) => ({
    id: crypto.randomUUID(),
    workspaceId: setup.workspaceId,
    userId: setup.userId,
    status: 'scheduled' as const,
    message: `kill ${i}`,
    accountIds: [accounts[i % accounts.length]!],
    media: [],
    accountOptions: {},
    scheduledAt: new Date(now),
    nextAttemptAt: new Date(now),
    createdAt: new Date(now + i),
    updatedAt: new Date(now + i),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await setup.ctx.db.insert(posts).values(rows.slice(i, i + 1000));

  const started = performance.now();
  await announceDue(setup.ctx, new Date(now));
  const remaining = async () =>
    rowsOf<{ n: number }>(
      await setup.ctx.db.execute(sql`SELECT count(*)::int AS n FROM posts WHERE status = 'scheduled'`),
    )[0]!.n;
  for (let k = 0; k < kills; k++) {
    // A random moment while there is still work, then a fresh process takes the victim's place.
    await new Promise((r) => setTimeout(r, 200 + Math.random() * 1500));
    const alive = children.flatMap((c, i) => (c.exitCode === null && c.signalCode === null ? [i] : []));
    const index = alive[Math.floor(Math.random() * alive.length)]!;
    const victim = children[index]!;
    const exited = new Promise((r) => victim.once('exit', r));
    victim.kill('SIGKILL');
    await exited;
    console.log(
      `SIGKILL #${k + 1} at ${((performance.now() - started) / 1000).toFixed(2)} s (${await remaining()} posts still scheduled)`,
    );
    // The replacement loads in the background while the other three carry on.
    const replacement = startDispatcherProcess(setup.env);
    children[index] = victim;
    void replacement.then((child) => {
      children[index] = child;
    });
  }
  const finished = await until(async () => (await remaining()) === 0, 180_000, 250);
  const seconds = (performance.now() - started) / 1000;

  const targets = rowsOf<{ platform: string; status: string; n: number }>(
    await setup.ctx.db.execute(
      sql`SELECT platform, status, count(*)::int AS n FROM post_targets GROUP BY platform, status ORDER BY 1, 2`,
    ),
  );
  const missing = rowsOf<{ n: number }>(
    await setup.ctx.db.execute(sql`
      SELECT count(*)::int AS n FROM posts p
      WHERE NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.status IN ('posted', 'failed', 'unknown'))`),
  )[0]!.n;
  const stats = await platform.stats();
  const tally = (name: string) =>
    Object.fromEntries(targets.filter((t) => t.platform === name).map((t) => [t.status, t.n]));
  const telegram = tally('telegram');
  const mastodon = tally('mastodon');
  // Lost: marked posted but never received, or never finished at all.
  const lost =
    missing +
    Math.max(0, (telegram.posted ?? 0) - stats.telegram.distinct) +
    Math.max(0, (mastodon.posted ?? 0) - stats.mastodon.distinct);
  console.log(
    `${postCount} posts, 4 dispatcher processes on PostgreSQL, ${kills} × SIGKILL: ${finished ? 'all finished' : 'NOT FINISHED'} in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `  mastodon (idempotent resend): ${JSON.stringify(mastodon)}; at the fake: ${stats.mastodon.distinct} posts, ` +
      `${stats.mastodon.duplicates} duplicates, ${stats.mastodon.replayed} resends answered from the Idempotency-Key`,
  );
  console.log(
    `  telegram (no dedupe): ${JSON.stringify(telegram)}; at the fake: ${stats.telegram.distinct} posts, ${stats.telegram.duplicates} duplicates`,
  );
  console.log(
    `  lost: ${lost}, targets in another state: ${targets.filter((t) => !['posted', 'failed', 'unknown'].includes(t.status)).reduce((n, t) => n + t.n, 0)}`,
  );
  if (!finished || lost > 0 || stats.mastodon.duplicates > 0 || stats.telegram.duplicates > 0)
    process.exitCode = 1;
} finally {
  await Promise.all(children.map(stopProcess));
  await setup.close();
  platform.stop();
}
