/**
 * Shared pieces of the dispatch benches: a fake platform process, a Scheduler context on PGlite or
 * a fresh PostgreSQL database, one user with many Telegram (and Mastodon) accounts, dispatcher
 * processes (`web/scripts/dispatcher.ts`, as an operator would run them), and percentiles.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveAccount } from '../../web/server/accounts/save-account.ts';
import { loadConfig } from '../../web/server/config.ts';
import { type AppContext, createContext } from '../../web/server/context.ts';
import { posts } from '../../web/server/db/schema.ts';
import { signUp } from '../../web/server/users/sign-up.ts';
import { sessionWorkspace } from '../../web/server/workspaces/membership.ts';
import { freshPostgres } from './postgres.ts';

export const repoRoot = new URL('../../', import.meta.url).pathname;

export interface PlatformStats {
  telegram: { received: number; distinct: number; duplicates: number; replayed: number };
  mastodon: { received: number; distinct: number; duplicates: number; replayed: number };
  lateness: number[];
  /** Per Telegram bot token: sends received, most in flight at once, most within any second. */
  bots: Record<string, { sent: number; peakConcurrent: number; maxPerSecond: number }>;
}

export interface FakePlatform {
  url: string;
  /** The fake's process, whose CPU a bench may read (bench/support/cpu.ts). */
  pid: number | undefined;
  stats(): Promise<PlatformStats>;
  reset(): Promise<void>;
  stop(): void;
}

export async function startFakePlatform(env: Record<string, string> = {}): Promise<FakePlatform> {
  const child = spawn(process.execPath, [new URL('./timed-platform.ts', import.meta.url).pathname], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (c) => resolve(String(c).trim())),
  );
  return {
    url,
    pid: child.pid,
    stats: async () => (await fetch(`${url}/stats`)).json() as Promise<PlatformStats>,
    reset: async () => void (await fetch(`${url}/reset`, { method: 'POST' })),
    stop: () => child.kill(),
  };
}

export interface Setup {
  ctx: AppContext;
  env: Record<string, string>;
  userId: string;
  /** The user's personal workspace, which owns the accounts and posts (docs/workspaces.md). */
  workspaceId: string;
  telegram: { id: string; botToken: string; chat: string }[];
  mastodon: { id: string }[];
  close(): Promise<void>;
}

/** A context (PGlite in a temp dir, or a fresh PostgreSQL database), a user, and its accounts. */
export async function setUp(
  backend: 'pglite' | 'postgres',
  platformUrl: string,
  /** `bots`: how many bot tokens the Telegram accounts share (default one each). */
  accounts: { telegram: number; mastodon?: number; bots?: number },
  extraEnv: Record<string, string> = {},
): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postwave-bench-'));
  const database = backend === 'postgres' ? await freshPostgres('postwave_bench_dispatch') : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    TELEGRAM_API_URL: platformUrl,
    ALLOW_PRIVATE_HOSTS: new URL(platformUrl).host,
    MIGRATIONS_DIR: join(repoRoot, 'drizzle'),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...extraEnv,
  };
  const ctx = await createContext(loadConfig(env));
  const user = await signUp(ctx, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark password',
  });
  const { workspace } = await sessionWorkspace(ctx, user.id);
  const telegram = [];
  for (let i = 0; i < accounts.telegram; i++) {
    const botToken = `${100000 + (i % (accounts.bots ?? accounts.telegram))}:benchTokenForDispatch`;
    const chat = `@bench${i}`;
    const { account } = await saveAccount(ctx, workspace.id, {
      platform: 'telegram',
      platformAccountId: chat,
      credentials: { botToken },
      profile: { name: `Bench ${i}` },
    });
    telegram.push({ id: account.id, botToken, chat });
  }
  const mastodon = [];
  for (let i = 0; i < (accounts.mastodon ?? 0); i++) {
    const { account } = await saveAccount(ctx, workspace.id, {
      platform: 'mastodon',
      platformAccountId: `bench${i}`,
      credentials: { instanceUrl: platformUrl, accessToken: `mastodon-token-${i}` },
      profile: { name: `Bench M${i}` },
    });
    mastodon.push({ id: account.id });
  }
  return {
    ctx,
    env,
    userId: user.id,
    workspaceId: workspace.id,
    telegram,
    mastodon,
    async close() {
      await ctx.database.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A dispatcher process (`web/scripts/dispatcher.ts`); resolves once it has started claiming. */
export async function startDispatcherProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(repoRoot, 'web/scripts/dispatcher.ts'), [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`dispatcher exited with ${code}`)));
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}

/**
 * `count` scheduled posts due a second ago, one Telegram account each in turn, inserted 1,000 at
 * a time; `lease` leaves them claimed by that owner (as a dispatcher holds them) for a minute.
 * Answers their ids in order.
 */
export async function insertDue(
  setup: Setup,
  count: number,
  label: string,
  lease?: { owner: string },
): Promise<string[]> {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    workspaceId: setup.workspaceId,
    userId: setup.userId,
    status: 'scheduled' as const,
    message: `${label} ${i}`,
    accountIds: [setup.telegram[i % setup.telegram.length]!.id],
    media: [],
    accountOptions: {},
    scheduledAt: new Date(now - 1000),
    nextAttemptAt: new Date(lease ? now + 60_000 : now - 1000),
    ...(lease ? { leaseOwner: lease.owner, leaseExpiresAt: new Date(now + 60_000) } : {}),
    createdAt: new Date(now + i),
    updatedAt: new Date(now + i),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await setup.ctx.db.insert(posts).values(rows.slice(i, i + 1000));
  return rows.map((r) => r.id);
}
