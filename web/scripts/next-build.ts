import { spawn } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keepAliveTimeoutMs } from '@postwave/shared/http/keep-alive';
import { writeRouteMethods } from './route-methods.ts';

export const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');

/** `next start`'s arguments, as `npm start` and the tests run it. */
export function nextStartArgs(port: number, hostname?: string): string[] {
  return [
    nextBin(),
    'start',
    '--port',
    String(port),
    '--keepAliveTimeout',
    String(keepAliveTimeoutMs),
    ...(hostname ? ['--hostname', hostname] : []),
  ];
}

/** The Next.js CLI entry point, run with the current Node binary. */
export function nextBin(): string {
  const require = createRequire(join(webDir, 'package.json'));
  return join(dirname(require.resolve('next/package.json')), 'dist', 'bin', 'next');
}

const sourceRoots = [
  join(webDir, 'app'),
  join(webDir, 'server'),
  join(webDir, 'components'),
  join(webDir, 'instrumentation.ts'),
  join(webDir, 'proxy.ts'),
  join(webDir, 'next.config.ts'),
  join(webDir, 'package.json'),
  join(webDir, 'tsconfig.json'),
  join(repoDir, 'shared', 'src'),
  join(repoDir, 'shared', 'package.json'),
];
const skip = new Set(['node_modules', '.next', 'test', 'data']);

function newestMtime(path: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (!skip.has(entry)) newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** True when there is no production build or a source file changed since it was made. */
export function buildIsStale(): boolean {
  let built: number;
  try {
    built = statSync(join(webDir, '.next', 'BUILD_ID')).mtimeMs;
  } catch {
    return true;
  }
  return sourceRoots.some((root) => newestMtime(root) > built);
}

export function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [nextBin(), ...args], {
      cwd: webDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const forward = (target: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk;
      target.write(chunk);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolvePromise();
      const error = new Error(`next ${args[0]} failed (${signal ?? `exit ${code}`})`) as Error & {
        busy?: boolean;
      };
      error.busy = output.includes('Another next build process is already running');
      reject(error);
    });
  });
}

/**
 * Runs `next build` when the build is missing or stale. When another build of this tree is
 * already running (a second checkout process, a parallel test run), waits for it and checks again.
 */
export async function buildIfStale(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (!buildIsStale()) return;
    console.log('Building the Scheduler (next build)...');
    // The proxy's map of each route file's methods follows the registry (routes added or removed).
    await writeRouteMethods();
    // Sources edited while the build runs must count as newer than it: date the build by its start.
    const started = new Date();
    try {
      await run(['build'], { ...process.env, NEXT_TELEMETRY_DISABLED: '1' });
      utimesSync(join(webDir, '.next', 'BUILD_ID'), started, started);
      return;
    } catch (error) {
      if (!(error as { busy?: boolean }).busy || attempt >= 40) throw error;
      await new Promise((r) => setTimeout(r, 15_000));
    }
  }
}
