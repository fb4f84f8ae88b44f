/**
 * POST /api/v1/posts to 50 Telegram accounts while the (fake) Bot API answers each call after
 * 200 ms. Target: wall time <= 1.5 x 200 ms with the default configuration, for 50 channels
 * shared by 5 bots (10 each, inside a bot's rate). Telegram rate-limits per bot, and so does the
 * publisher (30 sends in flight per bot), so 50 channels on a single bot take two waves unless
 * PUBLISH_CONCURRENCY_TELEGRAM=50 lifts that; both are shown for comparison.
 */

import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../selfhosted/src/config.ts';
import { createLogger } from '../selfhosted/src/logging.ts';
import { startServer } from '../selfhosted/src/server.ts';
import { createServices } from '../selfhosted/src/services.ts';

const accountsCount = 50;
const platformDelayMs = Number(process.env.BENCH_PLATFORM_DELAY_MS ?? 200);
const apiKey = 'bench-key-0123456789abcdef0123456789abcdef';
const botCount = 5;
const botTokens = Array.from({ length: botCount }, (_, i) => `12345${i}:benchToken${i}`);

const platform = spawn(process.execPath, [new URL('./support/slow-telegram.ts', import.meta.url).pathname], {
  env: {
    ...process.env,
    BENCH_PLATFORM_DELAY_MS: String(platformDelayMs),
    BENCH_BOT_TOKENS: botTokens.join(','),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const slowUrl = await new Promise<string>((resolve) => {
  platform.stdout!.once('data', (chunk) => resolve(String(chunk).trim()));
});

const dir = await mkdtemp(join(tmpdir(), 'postwave-bench-'));
const accountIds = Array.from({ length: accountsCount }, (_, i) => `tg${i}`);
/** An accounts file of the 50 channels, spread over `bots` bots. */
async function accountsFile(bots: number): Promise<string> {
  const file = join(dir, `accounts-${bots}.json`);
  await writeFile(
    file,
    JSON.stringify({
      accounts: accountIds.map((id, i) => ({
        id,
        platform: 'telegram',
        platformAccountId: `@chan${i}`,
        credentials: { botToken: botTokens[i % bots] },
      })),
    }),
  );
  return file;
}

async function measure(bots: number, concurrency: string | undefined): Promise<number> {
  const config = loadConfig({
    SERVICE_API_KEY: apiKey,
    SERVICE_ACCOUNTS_FILE: await accountsFile(bots),
    SERVICE_STORAGE_DIR: join(dir, 'media'),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TELEGRAM_API_URL: slowUrl,
    ...(concurrency ? { PUBLISH_CONCURRENCY_TELEGRAM: concurrency } : {}),
  });
  const services = createServices(config, createLogger(config.logLevel));
  const running = await startServer(config, services);
  const post = () =>
    fetch(`${running.url}/api/v1/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ message: 'Fan-out benchmark', accountIds, postingMode: 'now' }),
    });
  for (let i = 0; i < 3; i++) await (await post()).arrayBuffer(); // warm-up: connections, JIT
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const response = await post();
    const body = (await response.json()) as { status: string; results: unknown[] };
    times.push(performance.now() - started);
    if (response.status !== 200 || body.results.length !== accountsCount) {
      throw new Error(`unexpected answer ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
  await running.close();
  return [...times].sort((a, b) => a - b)[2]!;
}

const target = 1.5 * platformDelayMs;
const defaults = await measure(botCount, undefined);
console.log(
  `50 targets on ${botCount} bots, platform answers after ${platformDelayMs} ms, default configuration: ` +
    `${defaults.toFixed(0)} ms (median of 5; target <= ${target} ms) ${defaults <= target ? 'OK' : 'MISSED'}`,
);
const oneBot = await measure(1, undefined);
console.log(`50 targets on 1 bot, default configuration (30 in flight per bot): ${oneBot.toFixed(0)} ms`);
const raised = await measure(1, String(accountsCount));
console.log(`50 targets on 1 bot, PUBLISH_CONCURRENCY_TELEGRAM=50: ${raised.toFixed(0)} ms`);

platform.kill();
await rm(dir, { recursive: true, force: true });
