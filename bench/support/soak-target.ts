/**
 * The server under a memory soak, in its own process (started with --expose-gc) so its RSS is
 * its own. Answers IPC messages from the benchmark:
 *   'memory' → { rss, heapUsed }       'gc' → the same after two full collections
 * `BENCH_TARGET=selfhosted`: the self-hosted HTTP server (sends { url } when listening).
 * `BENCH_TARGET=scheduler`: the Scheduler's publish-now service path (createPost with
 * postingMode "now", as the route calls it), driven here by BENCH_CONNECTIONS concurrent loops
 * on message 'run' { durationMs } → { requests, errors }.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const send = (message: unknown) => process.send?.(message);
const memory = () => {
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external };
};
const gc = (globalThis as { gc?: () => void }).gc;

let runScheduler: ((durationMs: number) => Promise<{ requests: number; errors: number }>) | undefined;

process.on('message', async (message: { type: string; durationMs?: number }) => {
  if (message.type === 'memory') send({ type: 'memory', ...memory() });
  if (message.type === 'gc') {
    gc?.();
    await new Promise((r) => setTimeout(r, 100));
    gc?.();
    if (process.env.BENCH_HEAP_SPACES) {
      const { getHeapSpaceStatistics } = await import('node:v8');
      for (const space of getHeapSpaceStatistics())
        console.log(
          `  ${space.space_name}: size ${(space.space_size / 1048576).toFixed(1)} MiB, used ${(space.space_used_size / 1048576).toFixed(1)} MiB`,
        );
    }
    send({ type: 'gc', ...memory() });
  }
  if (message.type === 'run' && runScheduler)
    send({ type: 'ran', ...(await runScheduler(message.durationMs ?? 0)) });
  if (message.type === 'exit') process.exit(0);
});

const dir = mkdtempSync(join(tmpdir(), 'postwave-soak-'));
const telegramUrl = process.env.TELEGRAM_API_URL!;

if (process.env.BENCH_TARGET === 'selfhosted') {
  const { writeFileSync } = await import('node:fs');
  const { loadConfig } = await import('../../selfhosted/src/config.ts');
  const { createLogger } = await import('../../selfhosted/src/logging.ts');
  const { startServer } = await import('../../selfhosted/src/server.ts');
  const { createServices } = await import('../../selfhosted/src/services.ts');
  const accountsFile = join(dir, 'accounts.json');
  writeFileSync(
    accountsFile,
    JSON.stringify({
      accounts: [
        {
          id: 'tg',
          platform: 'telegram',
          platformAccountId: '@soak',
          credentials: { botToken: '123456:soakToken' },
        },
      ],
    }),
  );
  const config = loadConfig({
    SERVICE_API_KEY: process.env.BENCH_API_KEY!,
    SERVICE_ACCOUNTS_FILE: accountsFile,
    SERVICE_STORAGE_DIR: join(dir, 'media'),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    TELEGRAM_API_URL: telegramUrl,
    // Full rate: the soak measures memory per request, not the per-bot brake.
    PUBLISH_CONCURRENCY_TELEGRAM: '1000',
  });
  const running = await startServer(config, createServices(config, createLogger('silent')));
  send({ type: 'ready', url: running.url });
} else {
  const { loadConfig } = await import('../../web/server/config.ts');
  const { createContext } = await import('../../web/server/context.ts');
  const { saveAccount } = await import('../../web/server/accounts/save-account.ts');
  const { signUp } = await import('../../web/server/users/sign-up.ts');
  const { createPost } = await import('../../web/server/posts/create-post.ts');
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL,
    LOG_LEVEL: 'silent',
    TELEGRAM_API_URL: telegramUrl,
    MIGRATIONS_DIR: new URL('../../drizzle', import.meta.url).pathname,
    PUBLISH_CONCURRENCY_TELEGRAM: '1000',
    DATABASE_POOL_SIZE: '20',
  });
  const ctx = await createContext(config);
  const user = await signUp(ctx, { email: 'soak@example.com', password: 'benchmark password' });
  const { sessionWorkspace } = await import('../../web/server/workspaces/membership.ts');
  const { workspace } = await sessionWorkspace(ctx, user.id);
  const { account } = await saveAccount(ctx, workspace.id, {
    platform: 'telegram',
    platformAccountId: '@soak',
    credentials: { botToken: '123456:soakToken' },
    profile: { name: 'Soak' },
  });
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
  runScheduler = async (durationMs) => {
    const end = performance.now() + durationMs;
    let requests = 0;
    let errors = 0;
    let n = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          try {
            const post = await createPost(ctx, workspace.id, {
              message: `soak ${n++}`,
              accountIds: [account.id],
              media: [],
              accountOptions: {},
              postingMode: 'now',
            } as never);
            if (post.status === 'posted') requests++;
            else errors++;
          } catch {
            errors++;
          }
        }
      }),
    );
    return { requests, errors };
  };
  send({ type: 'ready' });
}
