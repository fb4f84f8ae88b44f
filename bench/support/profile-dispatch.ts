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
import { dispatchDuePosts, dispatchOptions } from '../../web/server/dispatch/service.ts';
import { countStatements } from './count-statements.ts';
import { insertDue, setUp, startFakePlatform } from './dispatch-setup.ts';

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
  await insertDue(setup, count, 'profile');
  // Statements (round trips) per post and where the run waits on the database (PostgreSQL only).
  const statements = countStatements();
  const session = new Session();
  if (process.env.PROFILE_OUT) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  statements.start();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const summary = await dispatchDuePosts(setup.ctx, { ...dispatchOptions(setup.ctx), timeBudgetMs: 120_000 });
  const seconds = (performance.now() - started) / 1000;
  statements.stop();
  const cpu1 = process.cpuUsage(cpu0);
  console.log(
    `user ${(cpu1.user / count).toFixed(0)} µs/post, system ${(cpu1.system / count).toFixed(0)} µs/post`,
  );
  if (process.env.PROFILE_OUT) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    session.disconnect();
  }
  if (backend === 'postgres') console.log(statements.report(count, 'post'));
  console.log(
    `${backend}: ${summary.posted} posted in ${seconds.toFixed(2)} s → ${(summary.posted / seconds).toFixed(0)}/s`,
  );
} finally {
  await setup.close();
  platform.stop();
}
