import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AccountEntry } from '@postwave/shared';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { type Config, loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logging.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { createServices, type Services } from '../src/services.ts';

export const apiKey = 'test-api-key-0123456789abcdef0123456789';
export const botToken = '111111:AAAbbbCCCdddEEE';
export const otherBotToken = '222222:ZZZyyyXXXwwwVVV';

/** Two channels the fake knows, and one it does not (publishing to it fails permanently). */
export const telegramAccounts: AccountEntry[] = [
  {
    id: 'tg-main',
    platform: 'telegram',
    platformAccountId: '@main',
    credentials: { botToken },
    label: 'Main',
  },
  {
    id: 'tg-news',
    platform: 'telegram',
    platformAccountId: '@news',
    credentials: { botToken: otherBotToken },
    options: { disableNotification: true },
  },
  { id: 'tg-gone', platform: 'telegram', platformAccountId: '@gone', credentials: { botToken } },
];

export async function fakeTelegram(): Promise<FakeTelegram> {
  return startFakeTelegram({
    bots: { [botToken]: { username: 'main_bot' }, [otherBotToken]: { username: 'news_bot' } },
    chats: {
      '@main': { id: -1001, type: 'channel', title: 'Main' },
      '@news': { id: -1002, type: 'channel' },
    },
  });
}

export interface TestServer {
  url: string;
  running: RunningServer;
  config: Config;
  services: Services;
  storageDir: string;
  accountsFile: string | undefined;
  /** Everything the server logged, one JSON object per line. */
  logs: string[];
  /** fetch against the server with the API key (unless `headers` overrides it). */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Accounts file contents; `null` runs without an accounts file. */
  accounts?: AccountEntry[] | null;
  telegram?: FakeTelegram;
  env?: Record<string, string>;
  /** Publishers instead of the configured ones (a test-only platform). */
  publishers?: Services['publishers'];
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'postwave-selfhosted-'));
  const storageDir = join(dir, 'media');
  let accountsFile: string | undefined;
  if (options.accounts !== null) {
    accountsFile = join(dir, 'accounts.json');
    await writeFile(accountsFile, JSON.stringify({ accounts: options.accounts ?? telegramAccounts }));
  }
  const config = loadConfig({
    SERVICE_API_KEY: apiKey,
    SERVICE_STORAGE_DIR: storageDir,
    SERVICE_PUBLIC_URL: 'http://127.0.0.1:9',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    PUBLISH_TIMEOUT_MS: '5000',
    PUBLISH_RETRY_BASE_MS: '5',
    PUBLISH_RETRY_MAX_MS: '20',
    SHUTDOWN_GRACE_MS: '2000',
    ...(accountsFile ? { SERVICE_ACCOUNTS_FILE: accountsFile } : {}),
    ...(options.telegram ? { TELEGRAM_API_URL: options.telegram.url } : {}),
    ...options.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const services = createServices(
    config,
    createLogger(config.logLevel, sink),
    options.publishers ? { publishers: options.publishers } : {},
  );
  const running = await startServer(config, services);
  const url = running.url;
  return {
    url,
    running,
    config,
    services,
    storageDir,
    accountsFile,
    logs,
    api(path, init = {}) {
      const { json, headers, ...rest } = init;
      return fetch(url + path, {
        ...(json === undefined ? {} : { method: 'POST', body: JSON.stringify(json) }),
        ...rest,
        headers: {
          'x-api-key': apiKey,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(headers as Record<string, string> | undefined),
        },
      });
    },
    async close() {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Files in the storage directory that could be media (temp and metadata folders excluded). */
export async function storedFiles(storageDir: string): Promise<string[]> {
  try {
    return (await readdir(storageDir)).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}

/** Files anywhere under the storage directory, temp files included. */
export async function allFiles(storageDir: string): Promise<string[]> {
  try {
    const entries = await readdir(storageDir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

export async function expectProblem(response: Response, status: number, code: string) {
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(response.status, status, JSON.stringify(body));
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(body.code, code, JSON.stringify(body));
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.equal(typeof body.type, 'string');
  return body;
}
