import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FakeTelegram } from '@postwave/shared/testing';
import { apiKey, botToken, fakeTelegram, startTestServer, type TestServer } from './helpers.ts';

const metricsToken = 'metrics-token-0123456789abcdef';

describe('health, readiness and metrics', () => {
  let telegram: FakeTelegram;
  let server: TestServer;
  before(async () => {
    telegram = await fakeTelegram();
    server = await startTestServer({ telegram, env: { METRICS_TOKEN: metricsToken } });
  });
  after(async () => {
    await server.close();
    await telegram.close();
  });

  it('/health is liveness and /ready names its checks, without a key', async () => {
    const health = await fetch(`${server.url}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const ready = await fetch(`${server.url}/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), {
      status: 'ready',
      checks: { storage: 'ok', shutdown: 'ok' },
      storage: 'local',
    });
  });

  it('/metrics needs the bearer token: 401 without or with a wrong one', async () => {
    const none = await fetch(`${server.url}/metrics`);
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal(((await none.json()) as { code: string }).code, 'unauthorized');
    const wrong = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}x` },
    });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const apiKeyInstead = await fetch(`${server.url}/metrics`, { headers: { 'x-api-key': apiKey } });
    assert.equal(apiKeyInstead.status, 401);
    await apiKeyInstead.body?.cancel();
  });

  it('/openapi.json declares the problem bodies /metrics answers with (401 here, 404 when off)', async () => {
    const none = await fetch(`${server.url}/metrics`);
    assert.match(none.headers.get('content-type') ?? '', /^application\/problem\+json/);
    await none.body?.cancel();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const { responses } = doc.paths['/metrics']!.get;
    for (const status of ['401', '404'])
      assert.ok(
        responses[status]?.content?.['application/problem+json'],
        `${status}: ${JSON.stringify(responses[status])}`,
      );
  });

  it('counts publishes by platform and outcome, with durations and process metrics', async () => {
    const posted = await server.api('/api/v1/posts', {
      json: { message: 'counted', accountIds: ['tg-main'], postingMode: 'now' },
    });
    assert.equal(posted.status, 200);
    const failed = await server.api('/api/v1/posts', {
      json: { message: 'to nowhere', accountIds: ['tg-gone'], postingMode: 'now' },
    });
    assert.equal(failed.status, 502);
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
    assert.ok(value(/^postwave_publish_total\{platform="telegram",outcome="posted"\} (\d+)$/m) >= 1);
    assert.ok(value(/^postwave_publish_total\{platform="telegram",outcome="failed"\} (\d+)$/m) >= 1);
    assert.ok(value(/^postwave_publish_duration_seconds_count\{platform="telegram"\} (\d+)$/m) >= 2);
    assert.match(text, /^postwave_publish_duration_seconds_bucket\{le="0\.5",platform="telegram"\} \d+$/m);
    assert.match(text, /^process_resident_memory_bytes \d+/m);
    assert.match(text, /^nodejs_eventloop_lag_seconds /m);
    assert.ok(!text.includes(botToken) && !text.includes(apiKey));
    // The schedule's metrics are the Scheduler's: no gauge stuck at 0 here.
    assert.doesNotMatch(text, /postwave_scheduled_due|postwave_dispatch_lateness_seconds/);
  });
});

describe('metrics off, storage down, shutting down', () => {
  it('refuses new publishes with 503 once shutdown began, and /ready names it', async () => {
    const server = await startTestServer();
    try {
      server.services.publishing.stopAccepting();
      const response = await server.api('/api/v1/posts', {
        json: { message: 'too late', accountIds: ['tg-main'], postingMode: 'now' },
      });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '5');
      assert.equal(((await response.json()) as { code: string }).code, 'unavailable');
      const ready = await fetch(`${server.url}/ready`);
      assert.equal(ready.status, 503);
      assert.deepEqual(((await ready.json()) as { failed: string[] }).failed, ['shutdown']);
    } finally {
      await server.close();
    }
  });

  it('/metrics is 404 without METRICS_TOKEN', async () => {
    const server = await startTestServer();
    try {
      const response = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer x' } });
      assert.equal(response.status, 404);
      await response.body?.cancel();
    } finally {
      await server.close();
    }
  });

  it('/ready is 503 naming storage when the storage check fails', async () => {
    const server = await startTestServer();
    try {
      server.services.storage.check = () => Promise.reject(new Error('disk gone at s3://secret@host/x'));
      const ready = await fetch(`${server.url}/ready`);
      assert.equal(ready.status, 503);
      const body = (await ready.json()) as { failed: string[]; detail: string };
      assert.deepEqual(body.failed, ['storage']);
      assert.doesNotMatch(body.detail, /secret/);
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
    } finally {
      await server.close();
    }
  });
});

/** The real process: SIGTERM while a publish waits on a slow Telegram. */
describe('SIGTERM', () => {
  const main = new URL('../src/main.ts', import.meta.url).pathname;
  let dir: string;
  let telegram: FakeTelegram;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'postwave-sigterm-'));
    telegram = await fakeTelegram();
    await writeFile(
      join(dir, 'accounts.json'),
      JSON.stringify({
        accounts: [
          { id: 'tg-main', platform: 'telegram', platformAccountId: '@main', credentials: { botToken } },
        ],
      }),
    );
  });
  after(async () => {
    await telegram.close();
    await rm(dir, { recursive: true, force: true });
  });

  function start(env: Record<string, string> = {}) {
    const child: ChildProcess = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: '0',
        SERVICE_API_KEY: apiKey,
        SERVICE_ACCOUNTS_FILE: join(dir, 'accounts.json'),
        SERVICE_STORAGE_DIR: join(dir, 'media'),
        TELEGRAM_API_URL: telegram.url,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = (async () => {
      for (let i = 0; i < 400; i++) {
        const match = /"port":(\d+)/.exec(output);
        if (match) return Number(match[1]);
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`server did not start: ${output}`);
    })();
    return { child, exited, port, output: () => output };
  }

  const publish = (port: number, message: string) =>
    fetch(`http://127.0.0.1:${port}/api/v1/posts`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ message, accountIds: ['tg-main'], postingMode: 'now' }),
    });

  it('lets a slow publish in flight finish and be posted, refuses new ones, then exits 0', async () => {
    const started = start();
    try {
      const port = await started.port;
      const before = telegram.sent.length;
      telegram.answerSlowly(2_500, { method: 'sendMessage' });
      const inFlight = publish(port, 'slow but sure');
      while (telegram.sent.length === before) await new Promise((r) => setTimeout(r, 20));
      started.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      // Readiness turns 503 at once, so a load balancer stops sending work.
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined);
      if (ready) assert.equal(ready.status, 503);
      const response = await inFlight;
      assert.equal(response.status, 200);
      const body = (await response.json()) as { status: string; results: { status: string }[] };
      assert.equal(body.status, 'posted');
      assert.equal(body.results[0]!.status, 'posted');
      assert.equal(await started.exited, 0);
      assert.equal(telegram.sent.length, before + 1, 'sent exactly once');
      assert.match(started.output(), /shutting down/);
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('a second SIGTERM exits at once', async () => {
    const started = start({ SHUTDOWN_GRACE_MS: '60000' });
    try {
      const port = await started.port;
      const before = telegram.requestCount('sendMessage');
      telegram.answerSlowly(6_000, { method: 'sendMessage' });
      const inFlight = publish(port, 'very slow').catch(() => undefined);
      while (telegram.requestCount('sendMessage') === before) await new Promise((r) => setTimeout(r, 20));
      const t0 = Date.now();
      started.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      started.child.kill('SIGTERM');
      const code = await started.exited;
      assert.ok(Date.now() - t0 < 4_000, 'did not wait for the publish or the grace period');
      assert.equal(code, 1);
      assert.match(started.output(), /second signal/);
      await inFlight;
    } finally {
      started.child.kill('SIGKILL');
      telegram.clearInjected();
    }
  });

  it('accepts the deprecated SHUTDOWN_TIMEOUT_MS, with a warning', async () => {
    const started = start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    try {
      await started.port;
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0);
      assert.match(started.output(), /SHUTDOWN_TIMEOUT_MS is deprecated/);
    } finally {
      started.child.kill('SIGKILL');
    }
  });
});
