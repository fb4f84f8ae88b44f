/**
 * Dispatch of 10,000 due scheduled posts (one Telegram target each) on PostgreSQL, with the Bot
 * API answering every send after 20 ms. Reports posts/s (target >= 500) and duplicates (must be 0),
 * for one app instance (default limits: the bench's single bot may have 30 sends in flight) and for several instances dispatching at once (separate pools and limiters,
 * as separate processes would have).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveAccount } from '../web/server/accounts/save-account.ts';
import { loadConfig } from '../web/server/config.ts';
import { type AppContext, createContext } from '../web/server/context.ts';
import { openDatabase } from '../web/server/db/client.ts';
import { posts } from '../web/server/db/schema.ts';
import { dispatchDuePosts } from '../web/server/dispatch/service.ts';
import { signUp } from '../web/server/users/sign-up.ts';
import { sessionWorkspace } from '../web/server/workspaces/membership.ts';
import { freshPostgres } from './support/postgres.ts';

const postCount = Number(process.env.BENCH_POSTS ?? 10_000);
const platformDelayMs = Number(process.env.BENCH_PLATFORM_DELAY_MS ?? 20);
const botToken = '123456:benchTokenForDispatch';

const platform = spawn(
  process.execPath,
  [new URL('./support/counting-telegram.ts', import.meta.url).pathname],
  {
    env: { ...process.env, BENCH_PLATFORM_DELAY_MS: String(platformDelayMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const platformUrl = await new Promise<string>((resolve) =>
  platform.stdout!.once('data', (c) => resolve(String(c).trim())),
);

async function stats(): Promise<{ total: number; distinct: number; duplicates: number }> {
  return (await fetch(`${platformUrl}/stats`)).json() as never;
}

async function run(label: string, instances: number, env: Record<string, string>) {
  const database = await freshPostgres('postwave_bench_dispatch');
  const dataDir = mkdtempSync(join(tmpdir(), 'postwave-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    TELEGRAM_API_URL: platformUrl,
    MIGRATIONS_DIR: new URL('../drizzle', import.meta.url).pathname,
    ...env,
  });
  const contexts: AppContext[] = [];
  for (let i = 0; i < instances; i++) {
    const handle = await openDatabase({
      databaseUrl: database.url,
      dataDir,
      poolSize: config.databasePoolSize,
    });
    contexts.push(await createContext(config, { database: handle }));
  }
  const ctx = contexts[0]!;
  try {
    const user = await signUp(ctx, {
      email: `bench-${label.replaceAll(' ', '-')}@example.com`,
      password: 'benchmark password',
    });
    const { workspace } = await sessionWorkspace(ctx, user.id);
    const { account } = await saveAccount(ctx, workspace.id, {
      platform: 'telegram',
      platformAccountId: '@bench',
      credentials: { botToken },
      profile: { name: 'Bench' },
    });
    const now = Date.now();
    const rows = Array.from({ length: postCount }, (_, i) => ({
      id: crypto.randomUUID(),
      workspaceId: workspace.id,
      userId: user.id,
      status: 'scheduled' as const,
      message: `${label} post ${i}`,
      accountIds: [account.id],
      media: [],
      accountOptions: {},
      scheduledAt: new Date(now - 1000),
      nextAttemptAt: new Date(now - 1000),
      createdAt: new Date(now + i),
      updatedAt: new Date(now + i),
    }));
    for (let i = 0; i < rows.length; i += 1000) await ctx.db.insert(posts).values(rows.slice(i, i + 1000));

    const before = await stats();
    const started = performance.now();
    let claimed = 0;
    let posted = 0;
    // Each instance keeps calling dispatch (as its timer or cron would) until nothing is left.
    await Promise.all(
      contexts.map(async (instance) => {
        for (;;) {
          const summary = await dispatchDuePosts(instance, {
            ...instance.config.dispatcher,
            timeBudgetMs: 25_000,
          });
          claimed += summary.claimed;
          posted += summary.posted;
          if (summary.claimed === 0) return;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = await stats();
    const sent = after.total - before.total;
    const duplicates = after.duplicates - before.duplicates;
    console.log(
      `${label}: ${postCount} posts in ${seconds.toFixed(2)} s → ${(posted / seconds).toFixed(0)} posts/s ` +
        `(claimed ${claimed}, posted ${posted}, sent ${sent}, duplicates ${duplicates})`,
    );
    if (duplicates !== 0 || posted !== postCount) process.exitCode = 1;
  } finally {
    for (const c of contexts) await c.database.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await run('1 instance, default limits', 1, {});
  if (!process.env.BENCH_QUICK) {
    await run('1 instance, 64 sends in flight', 1, {
      PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM: '64',
      DISPATCH_CONCURRENCY: '64',
    });
    await run('4 instances, default limits', 4, {});
  }
} finally {
  platform.kill();
}
