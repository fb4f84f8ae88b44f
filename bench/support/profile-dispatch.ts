/**
 * Profiling aid: BENCH_POSTS due posts (default 2000) over 50 accounts, one dispatch run against a
 * zero-latency fake. With PROFILE_OUT set, writes a CPU profile of the dispatch run alone (not the
 * setup) there, for Chrome DevTools or any .cpuprofile viewer:
 * `PROFILE_OUT=/tmp/dispatch.cpuprofile node bench/support/profile-dispatch.ts [pglite|postgres]`.
 * On PostgreSQL it also counts the statements (round trips) the run sends, per post, by their
 * first words, so a change to the per-post cost shows as a number and not only as a rate.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import pg from 'pg';
import { posts } from '../../web/server/db/schema.ts';
import { dispatchDuePosts, dispatchOptions } from '../../web/server/dispatch/service.ts';
import { setUp, startFakePlatform } from './dispatch-setup.ts';

const backend = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const count = Number(process.env.BENCH_POSTS ?? 2000);
const platform = await startFakePlatform({ BENCH_PLATFORM_DELAY_MS: '0' });
const setup = await setUp(
  backend,
  platform.url,
  { telegram: 50 }, // As the throughput bench runs it (bench/scheduler-timing.bench.ts): the machine's speed, no platform rate.
  { DISPATCH_CONCURRENCY: '64', PUBLISH_RATE_TELEGRAM_BOT: 'off' },
);
try {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    workspaceId: setup.workspaceId,
    userId: setup.userId,
    status: 'scheduled' as const,
    message: `profile ${i}`,
    accountIds: [setup.telegram[i % 50]!.id],
    media: [],
    accountOptions: {},
    scheduledAt: new Date(now - 1000),
    nextAttemptAt: new Date(now - 1000),
    createdAt: new Date(now + i),
    updatedAt: new Date(now + i),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await setup.ctx.db.insert(posts).values(rows.slice(i, i + 1000));
  // Every statement on PostgreSQL goes through Client#query (the pool's own query calls it once).
  // Each statement's time from sent to answered is summed too: where the run waits on the database.
  const statements = new Map<string, { count: number; ms: number }>();
  let counting = false;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!counting) return query.apply(this, args);
    {
      const first = args[0] as string | { text: string };
      const text = typeof first === 'string' ? first : first.text;
      const key = text.slice(0, 200).replace(/\s+/g, ' ').trim().slice(0, 70);
      const entry = statements.get(key) ?? { count: 0, ms: 0 };
      statements.set(key, entry);
      entry.count++;
      const sent = performance.now();
      const done = () => {
        entry.ms += performance.now() - sent;
      };
      // The pool passes a callback; a direct call gets a promise.
      const last = args.at(-1);
      if (typeof last === 'function')
        args[args.length - 1] = (...answer: unknown[]) => {
          done();
          return (last as (...a: unknown[]) => unknown)(...answer);
        };
      const answer = query.apply(this, args);
      if (answer instanceof Promise) void answer.then(done, () => {});
      return answer;
    }
  } as never;
  const session = new Session();
  if (process.env.PROFILE_OUT) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  counting = true;
  const started = performance.now();
  const summary = await dispatchDuePosts(setup.ctx, { ...dispatchOptions(setup.ctx), timeBudgetMs: 120_000 });
  const seconds = (performance.now() - started) / 1000;
  counting = false;
  if (process.env.PROFILE_OUT) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    session.disconnect();
  }
  if (statements.size > 0) {
    const all = [...statements.values()].reduce((a, b) => a + b.count, 0);
    console.log(`statements: ${all} for ${count} posts → ${(all / count).toFixed(2)} per post`);
    for (const [text, { count: n, ms }] of [...statements].sort((a, b) => b[1].count - a[1].count))
      console.log(
        `${(n / count).toFixed(3).padStart(8)} per post  ${String(n).padStart(6)}  ${(ms / n).toFixed(1).padStart(6)} ms each  ${text}`,
      );
  }
  console.log(
    `${backend}: ${summary.posted} posted in ${seconds.toFixed(2)} s → ${(summary.posted / seconds).toFixed(0)}/s`,
  );
} finally {
  await setup.close();
  platform.stop();
}
