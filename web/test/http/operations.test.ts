import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client.ts';
import { duplicateSignalWindowMs } from '../../server/lifecycle/shutdown.ts';
import { dispatchSecret } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';

const metricsToken = 'scheduler-metrics-token-0123456789';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Reads the stored post and its targets straight from the database the (stopped) app used. */
async function storedPost(env: TelegramApp, postId: string) {
  const database = await openDatabase({
    databaseUrl: env.app.databaseUrl,
    dataDir: env.app.dataDir,
    poolSize: 1,
  });
  try {
    const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
    const [post] = rows(
      await database.db.execute(sql`SELECT status, lease_owner FROM posts WHERE id = ${postId}::uuid`),
    );
    const targets = rows(
      await database.db.execute(sql`SELECT status FROM post_targets WHERE post_id = ${postId}::uuid`),
    );
    return { post, targets };
  } finally {
    await database.close();
  }
}

for (const backend of backends()) {
  describe(`health, readiness and metrics (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend, { METRICS_TOKEN: metricsToken });
    });
    after(() => env?.stop());

    test('/health and /ready answer without auth and name their checks', async () => {
      const health = await fetch(`${env.app.url}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      const ready = await fetch(`${env.app.url}/ready`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), {
        status: 'ready',
        // The webhook worker runs in this process (the dispatcher is off in tests unless asked for).
        checks: { database: 'ok', migrations: 'ok', storage: 'ok', shutdown: 'ok', webhooks: 'ok' },
      });
    });

    test('/metrics: 401 without the token; after publishing, counts, durations, lateness and due posts', async () => {
      const none = await fetch(`${env.app.url}/metrics`);
      assert.equal(none.status, 401);
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
      await none.body?.cancel();
      const wrong = await fetch(`${env.app.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 401);
      await wrong.body?.cancel();

      const { api } = await userWithToken(env.app.url);
      const news = await connectTelegram(api);
      const now = await api.json('/api/v1/posts', {
        json: { message: 'measured now', accountIds: [news], postingMode: 'now' },
      });
      assert.equal(now.body.status, 'posted');
      const scheduled = await api.json('/api/v1/posts', {
        json: {
          message: 'measured later',
          accountIds: [news],
          postingMode: 'schedule',
          scheduledAt: new Date(Date.now() + 1_000).toISOString(),
        },
      });
      assert.equal(scheduled.status, 201);
      await sleep(1_200);
      const read = async () => {
        const response = await fetch(`${env.app.url}/metrics`, {
          headers: { authorization: `Bearer ${metricsToken}` },
        });
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
        return response.text();
      };
      const beforeDispatch = await read();
      assert.match(beforeDispatch, /^postwave_scheduled_due 1$/m);
      const dispatched = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(((await dispatched.json()) as { posted: number }).posted, 1);
      const text = await read();
      assert.match(text, /^postwave_publish_total\{platform="telegram",outcome="posted"\} 2$/m);
      assert.match(text, /^postwave_publish_duration_seconds_count\{platform="telegram"\} 2$/m);
      assert.match(text, /^postwave_dispatch_lateness_seconds_count 1$/m);
      assert.match(text, /^postwave_scheduled_due 0$/m);
      assert.match(text, /^process_resident_memory_bytes \d+/m);
    });
  });

  describe(`metrics off (${backend})`, () => {
    test('/metrics is 404 without METRICS_TOKEN', async () => {
      const env = await startTelegramApp(backend);
      try {
        const response = await fetch(`${env.app.url}/metrics`, { headers: { authorization: 'Bearer x' } });
        assert.equal(response.status, 404);
        await response.body?.cancel();
      } finally {
        await env.stop();
      }
    });
  });

  describe(`readiness of the background loops (${backend})`, () => {
    test('a dispatcher loop frozen in its pass makes /ready 503 naming it, and it recovers', async () => {
      const holdFile = join(mkdtempSync(join(tmpdir(), 'postwave-hold-')), 'hold');
      const env = await startTelegramApp(backend, {
        DISPATCHER_ENABLED: 'true',
        DISPATCHER_INTERVAL_MS: '300',
        LOOP_HOLD_FILE: holdFile,
      });
      try {
        const readiness = async () => {
          const response = await fetch(`${env.app.url}/ready`);
          return {
            status: response.status,
            body: (await response.json()) as {
              checks: Record<string, string>;
              failed?: string[];
              detail?: string;
            },
          };
        };
        // Ready first: every loop (dispatcher and webhooks) has completed a pass since the start.
        await waitFor(async () => {
          const ready = await readiness();
          return ready.status === 200 && ready.body.checks?.dispatcher === 'ok';
        }, 'every check ok');
        // The hook in the loop: it holds before its next round, as a stuck worker would.
        writeFileSync(holdFile, '');
        await waitFor(async () => (await readiness()).status === 503, '/ready to fail');
        const frozen = await readiness();
        assert.deepEqual(frozen.body.failed, ['dispatcher']);
        assert.equal(frozen.body.checks.webhooks, 'ok');
        assert.match(
          frozen.body.detail ?? '',
          /^dispatcher: no pass completed for [\d.]+ s \(its interval is 0\.3 s\)$/,
        );
        assert.equal(
          (await fetch(`${env.app.url}/health`)).status,
          200,
          '/health still says the process serves',
        );
        rmSync(holdFile);
        await waitFor(async () => (await readiness()).status === 200, '/ready to recover');
        assert.equal((await readiness()).body.checks.dispatcher, 'ok');
      } finally {
        rmSync(holdFile, { force: true });
        await env.stop();
      }
    });
  });

  describe(`SIGTERM during a slow publish (${backend})`, () => {
    test('publish-now in flight completes and is recorded as posted; exit 0; sent once', async () => {
      const env = await startTelegramApp(backend);
      try {
        const { api } = await userWithToken(env.app.url);
        const news = await connectTelegram(api);
        env.telegram.answerSlowly(3_000, { method: 'sendMessage' });
        const inFlight = api.json('/api/v1/posts', {
          json: { message: 'slow now', accountIds: [news], postingMode: 'now' },
        });
        await waitFor(
          () => env.telegram.sent.some((m) => m.text === 'slow now'),
          'the publish to reach Telegram',
        );
        env.app.child.kill('SIGTERM');
        await sleep(300);
        const ready = await fetch(`${env.app.url}/ready`).catch(() => undefined);
        if (ready) assert.equal(ready.status, 503);
        const refused = await api.json('/api/v1/posts', {
          json: { message: 'too late', accountIds: [news], postingMode: 'now' },
        });
        assert.equal(refused.status, 503);
        assert.equal(refused.body.code, 'unavailable');
        const response = await inFlight;
        assert.equal(response.status, 201);
        assert.equal(response.body.status, 'posted');
        assert.equal(await env.app.exited, 0);
        const stored = await storedPost(env, response.body.id);
        assert.equal(stored.post?.status, 'posted');
        assert.deepEqual(
          stored.targets.map((t) => t.status),
          ['posted'],
        );
        assert.equal(env.telegram.sent.filter((m) => m.text === 'slow now').length, 1);
        assert.equal(env.telegram.sent.filter((m) => m.text === 'too late').length, 0);
      } finally {
        await env.stop();
      }
    });

    test('a scheduled post being dispatched completes and is recorded as posted; exit 0; sent once', async () => {
      const env = await startTelegramApp(backend, {
        DISPATCH_SECRET: '',
        DISPATCHER_ENABLED: 'true',
        DISPATCHER_INTERVAL_MS: '200',
      });
      try {
        const { api } = await userWithToken(env.app.url);
        const news = await connectTelegram(api);
        env.telegram.answerSlowly(3_000, { method: 'sendMessage' });
        const post = await api.json('/api/v1/posts', {
          json: {
            message: 'slow scheduled',
            accountIds: [news],
            postingMode: 'schedule',
            scheduledAt: new Date(Date.now() + 1_000).toISOString(),
          },
        });
        assert.equal(post.status, 201);
        await waitFor(
          () => env.telegram.sent.some((m) => m.text === 'slow scheduled'),
          'the dispatcher to reach Telegram',
        );
        env.app.child.kill('SIGTERM');
        assert.equal(await env.app.exited, 0);
        const stored = await storedPost(env, post.body.id);
        assert.equal(stored.post?.status, 'posted');
        assert.equal(stored.post?.lease_owner, null);
        assert.deepEqual(
          stored.targets.map((t) => t.status),
          ['posted'],
        );
        assert.equal(env.telegram.sent.filter((m) => m.text === 'slow scheduled').length, 1);
      } finally {
        await env.stop();
      }
    });

    test('a second SIGTERM exits at once; one sent twice within a moment is one stop', async () => {
      const env = await startTelegramApp(backend, { SHUTDOWN_GRACE_MS: '60000' });
      try {
        const { api } = await userWithToken(env.app.url);
        const news = await connectTelegram(api);
        env.telegram.answerSlowly(8_000, { method: 'sendMessage' });
        const inFlight = api
          .json('/api/v1/posts', { json: { message: 'very slow', accountIds: [news], postingMode: 'now' } })
          .catch(() => undefined);
        await waitFor(
          () => env.telegram.sent.some((m) => m.text === 'very slow'),
          'the publish to reach Telegram',
        );
        const t0 = Date.now();
        env.app.child.kill('SIGTERM');
        // The same stop delivered twice (terminal group, npm, start.ts): still draining.
        env.app.child.kill('SIGTERM');
        await sleep(duplicateSignalWindowMs + 300);
        assert.equal(env.app.child.exitCode, null, 'a duplicate signal does not cut the drain short');
        env.app.child.kill('SIGTERM');
        assert.equal(await env.app.exited, 1);
        assert.ok(Date.now() - t0 < 5_000, 'did not wait for the publish');
        await inFlight;
      } finally {
        await env.stop();
      }
    });
  });
}
