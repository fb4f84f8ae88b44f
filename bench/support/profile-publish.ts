/**
 * Profiling aid for the self-hosted publish path: starts one server of
 * `bench/selfhosted-publish.bench.ts` (argv[2]: `bare` or a checkout's root; default this one)
 * with a CPU profile of the measured part after a warm-up (or, with PROFILE_CALLGRIND=1, under `valgrind --tool=callgrind`, whose
 * instruction counts do not depend on the machine's other load), drives it with 64 connections
 * for BENCH_DURATION_MS, and prints the requests served and the server's CPU time per request
 * (PROFILE_CPU=0: without the CPU profile, whose sampling costs a little). argv[2] may be
 * `ref:<commit>` (checked out beside today's packages, bench/support/baseline-checkout.ts).
 * The profile lands in PROFILE_DIR (default a temp dir, printed).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from '../load.ts';
import { checkoutBaseline, removeBaseline } from './baseline-checkout.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argument = process.argv[2] ?? root;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const dir = process.env.PROFILE_DIR ?? (await mkdtemp(join(tmpdir(), 'postwave-profile-')));
// `ref:<commit>`: that commit, checked out beside today's packages.
const target = argument.startsWith('ref:')
  ? await checkoutBaseline(
      root,
      argument.slice(4),
      await mkdtemp(join(tmpdir(), 'postwave-baseline-')).then((d) => join(d, 'checkout')),
    )
  : argument;
const apiKey = 'bench-key-0123456789abcdef0123456789abcdef';
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

function start(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<[ChildProcess, string]> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => child.stdout!.once('data', (c) => resolve([child, String(c).trim()])));
}

const [telegram, telegramUrl] = await start(
  process.execPath,
  [join(root, 'bench/support/counting-telegram.ts')],
  {
    BENCH_PLATFORM_DELAY_MS: '0',
    // As api.telegram.org: a declared Content-Length (BENCH_REPLY_LENGTH=chunked for Node's default).
    BENCH_REPLY_LENGTH: process.env.BENCH_REPLY_LENGTH ?? 'declared',
  },
);
const env = {
  BENCH_TELEGRAM_URL: telegramUrl,
  BENCH_ACCOUNTS_FILE: accountsFile,
  BENCH_API_KEY: apiKey,
  BENCH_STORAGE_DIR: join(dir, 'media'),
};
const nodeArgs = [join(root, 'bench/support/selfhosted-publish-target.ts'), target];
const [server, url] = process.env.PROFILE_CALLGRIND
  ? await start(
      'valgrind',
      [
        '--tool=callgrind',
        // V8 writes and rewrites machine code: valgrind must notice it.
        '--smc-check=all-non-file',
        // Start and warm-up run uninstrumented (several times faster); counting starts after it.
        '--instr-atstart=no',
        `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`,
        process.execPath,
        ...nodeArgs,
      ],
      env,
    )
  : await start(process.execPath, nodeArgs, {
      ...env,
      BENCH_CPU_OUT: join(dir, 'cpu-us'),
      ...(process.env.PROFILE_CPU === '0' ? {} : { BENCH_PROFILE_OUT: join(dir, 'publish.cpuprofile') }),
    });
const body = JSON.stringify({
  message: 'Publish path benchmark',
  accountIds: ['tg1', 'tg2'],
  postingMode: 'now',
});
const load = (ms: number) =>
  runLoad({
    url: `${url}/api/v1/posts`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body,
    connections: 64,
    durationMs: ms,
  });
// Warm-up (module loading, JIT) outside the profile: callgrind instruments only after it and
// dumps after the measured load, so the count is of the measured requests only.
const callgrind = (option: string) =>
  execFileSync('callgrind_control', [option, String(server.pid)], { encoding: 'utf8' });
await load(Number(process.env.BENCH_WARMUP_MS ?? (process.env.PROFILE_CALLGRIND ? 20_000 : 3000)));
if (process.env.PROFILE_CALLGRIND) callgrind('--instr=on');
else {
  server.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
}
const result = await load(durationMs);
let instructions: number | undefined;
if (process.env.PROFILE_CALLGRIND) {
  callgrind('--dump');
  // The dump just written is the newest file with a part suffix; its `totals:` line counts Ir.
  const dumps = (await readdir(dir)).filter((f) => /^callgrind\.out\.\d+\.\d+$/.test(f)).sort();
  const text = await readFile(join(dir, dumps.at(-1)!), 'utf8');
  instructions = Number(/^(?:totals|summary): (\d+)/m.exec(text)?.[1]);
}
await new Promise<void>((resolve) => {
  server.once('exit', () => resolve());
  server.kill('SIGTERM');
});
telegram.kill();
const cpuUs = process.env.PROFILE_CALLGRIND ? undefined : Number(await readFile(join(dir, 'cpu-us'), 'utf8'));
if (argument.startsWith('ref:')) removeBaseline(root, target);
console.log(
  JSON.stringify({
    target: argument,
    requests: result.requests,
    ...(cpuUs ? { cpuUsPerRequest: Math.round(cpuUs / result.requests) } : {}),
    statuses: result.statuses,
    ...(instructions
      ? { instructions, instructionsPerRequest: Math.round(instructions / result.requests) }
      : {}),
    profileDir: dir,
  }),
);
