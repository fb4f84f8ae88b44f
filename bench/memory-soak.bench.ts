/**
 * Memory under sustained load: 64 connections publishing for BENCH_SOAK_SECONDS (default 60)
 * through the self-hosted server to a fake Telegram, then the same number of concurrent
 * publish-now calls through the Scheduler's posts service (PostgreSQL when DATABASE_URL or the
 * local default answers, else PGlite). Prints RSS before, during, after, and after a forced full
 * GC. Goal: RSS growth under 100 MiB on both (it was over 1 GiB for the self-hosted server when
 * every request left an AbortSignal.timeout() behind for PUBLISH_TIMEOUT_MS).
 *
 *   node bench/memory-soak.bench.ts                 # both, 60 s each
 *   BENCH_SOAK_SECONDS=15 node bench/memory-soak.bench.ts selfhosted
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runLoad } from './load.ts';
import { freshPostgres } from './support/postgres.ts';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const connections = 64;
const apiKey = 'soak-benchmark-api-key-0123456789abcdef';
const which = process.argv.slice(2);
const wanted = (name: string) => which.length === 0 || which.includes(name);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

const platform = spawn(
  process.execPath,
  [new URL('./support/counting-telegram.ts', import.meta.url).pathname],
  {
    env: { ...process.env, BENCH_PLATFORM_DELAY_MS: process.env.BENCH_PLATFORM_DELAY_MS ?? '2' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const telegramUrl = await new Promise<string>((resolve) =>
  platform.stdout!.once('data', (chunk) => resolve(String(chunk).trim())),
);

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/**
 * The Node flags the self-hosted server runs with: those of its start script (the Dockerfile's CMD
 * carries the same, selfhosted/test/node-flags.test.ts checks it). The Scheduler's `next start`
 * runs with none.
 */
function selfhostedNodeFlags(): string[] {
  const manifest = readFileSync(new URL('../selfhosted/package.json', import.meta.url), 'utf8');
  const { scripts } = JSON.parse(manifest) as { scripts: { start: string } };
  return scripts.start
    .split(/\s+/)
    .slice(1)
    .filter((word) => word.startsWith('--'));
}

function startTarget(
  target: 'selfhosted' | 'scheduler',
  productFlags: string[],
  env: Record<string, string | undefined>,
) {
  // BENCH_NODE_FLAGS replaces the product's flags, to compare (e.g. an empty value: V8's defaults).
  const flags = process.env.BENCH_NODE_FLAGS ?? productFlags.join(' ');
  const child = fork(new URL('./support/soak-target.ts', import.meta.url).pathname, [], {
    execArgv: ['--expose-gc', ...flags.split(' ').filter(Boolean)],
    env: {
      ...process.env,
      BENCH_TARGET: target,
      TELEGRAM_API_URL: telegramUrl,
      BENCH_API_KEY: apiKey,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(type: string, extra: object = {}) =>
    new Promise<T>((resolve) => {
      const answer = type === 'run' ? 'ran' : type;
      const onMessage = (message: { type: string }) => {
        if (message.type !== answer) return;
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
      child.send({ type, ...extra });
    });
  const ready = new Promise<{ url?: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`soak target exited with ${code}`)));
    const onMessage = (message: { type: string; url?: string }) => {
      if (message.type !== 'ready') return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
  });
  return { child, ready, ask, flags: flags || 'none' };
}

/** Samples RSS every 5 s while `work` runs; returns the peak and the 10 s sample (warm, steady). */
async function sampled(
  ask: <T>(type: string) => Promise<T>,
  work: Promise<unknown>,
): Promise<{ peak: number; atTen: number | undefined }> {
  let peak = 0;
  let atTen: number | undefined;
  let done = false;
  void work.finally(() => {
    done = true;
  });
  const started = Date.now();
  while (!done) {
    await Promise.race([work, new Promise((r) => setTimeout(r, 5_000))]);
    const { rss } = await ask<Memory>('memory');
    peak = Math.max(peak, rss);
    const at = Math.round((Date.now() - started) / 1000);
    if (at >= 10 && atTen === undefined) atTen = rss;
    if (!done) console.log(`  ${at} s: RSS ${mib(rss)}`);
  }
  return { peak, atTen };
}

function report(
  label: string,
  before: Memory,
  after: Memory,
  collected: Memory,
  { peak, atTen }: { peak: number; atTen: number | undefined },
  rate: string,
) {
  const growth = collected.rss - before.rss;
  const steady = atTen === undefined ? '' : `; from 10 s to the end ${mib(after.rss - atTen)}`;
  console.log(
    `${label}: ${rate}; RSS ${mib(before.rss)} before, ${mib(peak)} peak, ${mib(after.rss)} after, ` +
      `${mib(collected.rss)} after GC (heap used ${mib(before.heapUsed)} → ${mib(collected.heapUsed)}, ` +
      `heap total ${mib(before.heapTotal)} → ${mib(collected.heapTotal)}, external ${mib(collected.external)}); growth ${mib(growth)} ` +
      `(goal < 100 MiB: ${growth < 100 * 1024 * 1024 ? 'met' : 'NOT met'})${steady}`,
  );
}

async function stop(child: ChildProcess) {
  child.send({ type: 'exit' });
  await new Promise((r) => child.once('exit', r));
}

if (wanted('selfhosted')) {
  const target = startTarget('selfhosted', selfhostedNodeFlags(), {});
  const { url } = await target.ready;
  // Warm up (JIT, pools), then measure from a collected baseline.
  await runLoad({ url: `${url}/api/v1/posts`, ...request(), connections, durationMs: 3_000 });
  const before = await target.ask<Memory>('gc');
  console.log(`self-hosted (node flags: ${target.flags}): ${connections} connections for ${seconds} s`);
  const load = runLoad({ url: `${url}/api/v1/posts`, ...request(), connections, durationMs: seconds * 1000 });
  const peak = await sampled(target.ask, load);
  const result = await load;
  const after = await target.ask<Memory>('memory');
  const collected = await target.ask<Memory>('gc');
  report(
    'self-hosted',
    before,
    after,
    collected,
    peak,
    `${result.perSecond.toFixed(0)} posts/s, statuses ${JSON.stringify(result.statuses)}, ${result.errors} errors`,
  );
  await stop(target.child);
}

if (wanted('scheduler')) {
  let database: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  try {
    database = await freshPostgres('postwave_bench_soak');
  } catch {
    console.log('scheduler: no PostgreSQL answers; using PGlite');
  }
  const target = startTarget('scheduler', [], {
    BENCH_DATABASE_URL: database?.url,
    BENCH_CONNECTIONS: String(connections),
  });
  try {
    await target.ready;
    await target.ask('run', { durationMs: 3_000 });
    const before = await target.ask<Memory>('gc');
    console.log(
      `scheduler publish-now (${database ? 'PostgreSQL' : 'PGlite'}, node flags: ${target.flags}): ` +
        `${connections} concurrent for ${seconds} s`,
    );
    const run = target.ask<{ requests: number; errors: number }>('run', { durationMs: seconds * 1000 });
    const peak = await sampled(target.ask, run);
    const result = await run;
    const after = await target.ask<Memory>('memory');
    const collected = await target.ask<Memory>('gc');
    report(
      'scheduler',
      before,
      after,
      collected,
      peak,
      `${(result.requests / seconds).toFixed(0)} posts/s, ${result.errors} errors`,
    );
  } finally {
    await stop(target.child);
    await database?.drop();
  }
}

const stats = (await (await fetch(`${telegramUrl}/stats`)).json()) as { total: number };
console.log(`fake Telegram received ${stats.total} messages`);
platform.kill();

function request() {
  return {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'soak', accountIds: ['tg'], postingMode: 'now' }),
  };
}
