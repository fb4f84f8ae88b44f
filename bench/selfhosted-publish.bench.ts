/**
 * The self-hosted publish path per request: 64 connections POST /api/v1/posts (postingMode now)
 * to two Telegram accounts on a zero-latency fake Bot API, Telegram pacing off, so what is
 * measured is the server's own cost. In one run, alternated round by round (this machine's other
 * load drifts): a bare Express handler doing the same two sends over a keep-alive agent, today's
 * server, and an older one: BENCH_BASELINE_REF=<commit> (default 7473bb9, the code before the round
 * that slowed this path; checked out to a temp git worktree by this bench, with today's
 * node_modules; `none` for no baseline) or BENCH_BASELINE_DIR=<a checkout with its own
 * node_modules>. Prints req/s and p99 per round, medians and a `RATIO` line. Each server runs in
 * its own process. BENCH_DURATION_MS (default 5000) per round, BENCH_ROUNDS (default 3);
 * `--small`: 3 rounds of 2 s (well under two minutes).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from './load.ts';
import { checkoutBaseline, removeBaseline } from './support/baseline-checkout.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const small = process.argv.includes('--small');
const durationMs = Number(process.env.BENCH_DURATION_MS ?? (small ? 2000 : 5000));
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const baselineRef = process.env.BENCH_BASELINE_DIR
  ? undefined
  : (process.env.BENCH_BASELINE_REF ?? '7473bb9') === 'none'
    ? undefined
    : (process.env.BENCH_BASELINE_REF ?? '7473bb9');
const connections = 64;
const apiKey = 'bench-key-0123456789abcdef0123456789abcdef';
const children: ChildProcess[] = [];

/** Starts a script in its own process; resolves with the first line it prints (its URL). */
async function startProcess(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk) => resolve(String(chunk).trim().split('\n')[0]!));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const dir = await mkdtemp(join(tmpdir(), 'postwave-bench-publish-'));
const accountsFile = join(dir, 'accounts.json');
await writeFile(
  accountsFile,
  JSON.stringify({
    accounts: [
      { id: 'tg1', platform: 'telegram', platformAccountId: '@one', credentials: { botToken: '111:one' } },
      { id: 'tg2', platform: 'telegram', platformAccountId: '@two', credentials: { botToken: '222:two' } },
    ],
  }),
);
const telegramUrl = await startProcess([join(root, 'bench/support/counting-telegram.ts')], {
  BENCH_PLATFORM_DELAY_MS: '0',
  // As api.telegram.org: a declared Content-Length (BENCH_REPLY_LENGTH=chunked for Node's default).
  BENCH_REPLY_LENGTH: process.env.BENCH_REPLY_LENGTH ?? 'declared',
});
const env = {
  BENCH_TELEGRAM_URL: telegramUrl,
  BENCH_ACCOUNTS_FILE: accountsFile,
  BENCH_API_KEY: apiKey,
  BENCH_STORAGE_DIR: join(dir, 'media'),
};
const targetScript = join(root, 'bench/support/selfhosted-publish-target.ts');

const baselineDir =
  process.env.BENCH_BASELINE_DIR ??
  (baselineRef ? await checkoutBaseline(root, baselineRef, join(dir, 'baseline')) : undefined);
const servers: { name: string; url: string }[] = [
  { name: 'bare express', url: await startProcess([targetScript, 'bare'], env) },
  { name: 'today', url: await startProcess([targetScript, root], env) },
];
if (baselineDir)
  servers.push({
    name: `baseline ${baselineRef ?? baselineDir}`,
    url: await startProcess([targetScript, baselineDir], env),
  });

const body = JSON.stringify({
  message: 'Publish path benchmark',
  accountIds: ['tg1', 'tg2'],
  postingMode: 'now',
});
const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
const load = (url: string, ms = durationMs) =>
  runLoad({ url: `${url}/api/v1/posts`, method: 'POST', headers, body, connections, durationMs: ms });

for (const server of servers) {
  const warm = await load(server.url, Math.min(2000, durationMs));
  if (!warm.statuses[200] || Object.keys(warm.statuses).length !== 1)
    throw new Error(`${server.name}: unexpected statuses ${JSON.stringify(warm.statuses)}`);
}
const results = new Map(servers.map((s) => [s.name, [] as { rate: number; p99: number }[]]));
for (let round = 0; round < rounds; round++) {
  for (const server of servers) {
    const result = await load(server.url);
    results.get(server.name)!.push({ rate: result.perSecond, p99: result.p99Ms });
    console.log(
      `round ${round + 1} ${server.name.padEnd(24)} ${result.perSecond.toFixed(0).padStart(6)} req/s  p99 ${result.p99Ms.toFixed(1)} ms  ${JSON.stringify(result.statuses)}${result.errors ? ` errors ${result.errors}` : ''}`,
    );
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const bareRate = median(results.get('bare express')!.map((r) => r.rate));
const todayRate = median(results.get('today')!.map((r) => r.rate));
for (const [name, list] of results) {
  const rate = median(list.map((r) => r.rate));
  console.log(
    `${name.padEnd(32)} median ${rate.toFixed(0).padStart(6)} req/s  p99 ${median(list.map((r) => r.p99)).toFixed(1)} ms  ` +
      `${(rate / bareRate).toFixed(2)} x bare${name === 'today' ? '' : `  today ${(todayRate / rate).toFixed(2)} x this`}`,
  );
}

const baseline = servers.find((s) => s.name.startsWith('baseline'));
if (baseline) {
  const baselineRate = median(results.get(baseline.name)!.map((r) => r.rate));
  console.log(
    `RATIO today / ${baseline.name} = ${(todayRate / baselineRate).toFixed(2)} × (goal ≥ 1.0; medians of ${rounds} alternated rounds, load ${loadavg()[0]!.toFixed(1)})`,
  );
}

for (const child of children) child.kill();
if (baselineRef && baselineDir) removeBaseline(root, baselineDir);
await rm(dir, { recursive: true, force: true });
