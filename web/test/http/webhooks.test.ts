import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeTelegram, startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { Client, signUp, userWithToken } from '../helpers/client.ts';
import { backends, createPostgresDatabase } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

/**
 * Webhooks (docs/webhooks.md) through real HTTP: the app (its in-process worker on) delivers to a local
 * receiver that verifies every request with the `standardwebhooks` package. The retry schedule
 * is shortened with WEBHOOK_RETRY_SCHEDULE (what is tested is the order of attempts, never time).
 */

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function deliveriesOf(client: Client, webhookId: string) {
  const res = await client.json(`/api/v1/webhooks/${webhookId}/deliveries`);
  assert.equal(res.status, 200);
  return res.body.deliveries as {
    id: string;
    messageId: string;
    eventType: string;
    status: string;
    attempts: number;
    payload: { type: string; data: Record<string, unknown> };
    attemptLog: { statusCode: number | null; durationMs: number; error: string | null }[];
  }[];
}

for (const backend of backends()) {
  describe(`webhooks (${backend})`, () => {
    let env: TelegramApp;
    let app: RunningApp;
    let receiver: WebhookReceiver;
    let client: Client;

    before(async () => {
      receiver = await startWebhookReceiver();
      env = await startTelegramApp(backend, {
        ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
        WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms',
      });
      app = env.app;
      client = (await signUp(app.url, 'hooks')).client;
    });
    after(async () => {
      await env?.stop();
      await receiver?.close();
    });
    beforeEach(() => {
      receiver.received.length = 0;
      receiver.respond = () => 204;
    });

    const create = async (events: string[], c = client) => {
      const res = await c.json('/api/v1/webhooks', {
        json: { url: receiver.url, events, description: 'tests' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string; secret: string; url: string; events: string[] };
    };

    test('create shows the secret once; list and get never show it; the routes are in /openapi.json', async () => {
      const hook = await create(['post.published']);
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
      assert.deepEqual(hook.events, ['post.published']);
      const list = await client.json('/api/v1/webhooks');
      assert.equal(list.status, 200);
      assert.ok(list.body.webhooks.some((w: { id: string }) => w.id === hook.id));
      assert.ok(!JSON.stringify(list.body).includes(hook.secret));
      assert.ok(!JSON.stringify((await client.json(`/api/v1/webhooks/${hook.id}`)).body).includes('whsec_'));
      const openapi = (await client.json('/openapi.json')).body;
      for (const path of [
        '/api/v1/webhooks',
        '/api/v1/webhooks/{id}',
        '/api/v1/webhooks/{id}/rotate-secret',
        '/api/v1/webhooks/{id}/test',
        '/api/v1/webhooks/{id}/deliveries',
        '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      ])
        assert.ok(openapi.paths[path], path);
    });

    test('a test event is signed, verified by the receiver, and in the delivery log', async () => {
      const hook = await create(['post.failed']);
      receiver.secrets = [hook.secret];
      const res = await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'delivered');
      assert.equal(res.body.attemptLog[0].statusCode, 204);
      const [got] = receiver.received;
      assert.deepEqual(got!.verifiedWith, [hook.secret]);
      assert.equal(got!.headers['webhook-id'], res.body.messageId);
      assert.match(got!.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
      const payload = got!.payload as { type: string; timestamp: string; data: unknown };
      assert.equal(payload.type, 'webhook.test');
      assert.ok(!Number.isNaN(Date.parse(payload.timestamp)));
      const log = await deliveriesOf(client, hook.id);
      assert.equal(log[0]!.id, res.body.id);
      assert.equal(log[0]!.attemptLog.length, 1);
      assert.equal(typeof log[0]!.attemptLog[0]!.durationMs, 'number');
      assert.ok(!app.output().includes(hook.secret), 'the secret never reaches the logs');
    });

    test('a published post sends post.published carrying the Post', async () => {
      const { client: owner } = await signUp(app.url, 'publisher');
      const account = await connectTelegram(owner, '@news');
      const hook = await create(['post.published', 'post.failed'], owner);
      receiver.secrets = [hook.secret];
      const post = await owner.json('/api/v1/posts', {
        json: { message: 'hello hooks', accountIds: [account], postingMode: 'now' },
      });
      assert.equal(post.status, 201);
      const [got] = await receiver.waitFor(1);
      const payload = got!.payload as {
        type: string;
        data: { id: string; status: string; results: unknown[] };
      };
      assert.equal(payload.type, 'post.published');
      assert.equal(payload.data.id, post.body.id);
      assert.equal(payload.data.status, 'posted');
      assert.equal(payload.data.results.length, 1);
    });

    test('one target refused sends post.partially_published, every target refused post.failed: once each, carrying the Post', async () => {
      const { client: owner } = await signUp(app.url, 'partial');
      const news = await connectTelegram(owner, '@news');
      const updates = await connectTelegram(owner, '@updates', bots.second);
      const hook = await create(
        ['post.published', 'post.partially_published', 'post.failed', 'post.unknown'],
        owner,
      );
      receiver.secrets = [hook.secret];
      const refuse = (times: number) =>
        env.telegram.inject({
          method: 'sendMessage',
          times,
          status: 400,
          json: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
        });
      type PostEvent = { type: string; data: { id: string; status: string; results: { status: string }[] } };
      const events: PostEvent[] = [];
      for (const [times, expected] of [
        [1, 'post.partially_published'],
        [2, 'post.failed'],
      ] as const) {
        refuse(times);
        const post = await owner.json('/api/v1/posts', {
          json: { message: `refused ${times}`, accountIds: [news, updates], postingMode: 'now' },
        });
        assert.equal(post.status, 201, JSON.stringify(post.body));
        const [got] = await until(expected, async () => {
          const found = receiver.received.filter((r) => (r.payload as PostEvent).data?.id === post.body.id);
          return found.length ? found : undefined;
        });
        const payload = got!.payload as PostEvent;
        assert.deepEqual(got!.verifiedWith, [hook.secret]);
        assert.equal(payload.type, expected);
        assert.equal(payload.data.id, post.body.id);
        assert.equal(payload.data.status, post.body.status);
        assert.deepEqual(
          payload.data.results.map((r) => r.status).sort(),
          times === 1 ? ['failed', 'posted'] : ['failed', 'failed'],
        );
        events.push(payload);
      }
      // No second delivery of either event turned up meanwhile.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(receiver.received.length, 2);
      assert.deepEqual((await deliveriesOf(owner, hook.id)).map((d) => d.eventType).sort(), [
        'post.failed',
        'post.partially_published',
      ]);
    });

    test('a failing receiver is retried with backoff until it answers 2xx, each attempt logged', async () => {
      const hook = await create(['post.published']);
      receiver.secrets = [hook.secret];
      receiver.respond = (i) => (i < 2 ? 500 : 204);
      const first = await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      assert.equal(first.body.status, 'pending');
      assert.equal(first.body.lastStatusCode, 500);
      assert.ok(first.body.nextAttemptAt);
      const delivered = await until('the retried delivery', async () => {
        const [d] = await deliveriesOf(client, hook.id);
        return d?.status === 'delivered' ? d : undefined;
      });
      assert.deepEqual(
        delivered.attemptLog.map((a) => a.statusCode),
        [204, 500, 500],
      );
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1);
      assert.ok(receiver.received.every((r) => r.verifiedWith.length === 1));
    });

    test('a delivery whose retries all fail is marked failed', async () => {
      const hook = await create(['post.published']);
      receiver.respond = () => 502;
      await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      const failed = await until('the failed delivery', async () => {
        const [d] = await deliveriesOf(client, hook.id);
        return d?.status === 'failed' ? d : undefined;
      });
      assert.equal(failed.attempts, 4, 'the first attempt and three retries');
      assert.equal(receiver.received.length, 4);
    });

    test('redeliver sends the same message again and logs the attempt', async () => {
      const hook = await create(['post.published']);
      receiver.secrets = [hook.secret];
      const sent = await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      const res = await client.json(`/api/v1/webhooks/${hook.id}/deliveries/${sent.body.id}/redeliver`, {
        method: 'POST',
      });
      assert.equal(res.status, 202);
      await receiver.waitFor(2);
      assert.equal(receiver.received[1]!.headers['webhook-id'], sent.body.messageId);
      assert.deepEqual(receiver.received[1]!.verifiedWith, [hook.secret]);
      await until('two logged attempts', async () => {
        const [d] = await deliveriesOf(client, hook.id);
        return d?.attemptLog.length === 2 && d.status === 'delivered' ? d : undefined;
      });
      const missing = await client.json(
        `/api/v1/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
        { method: 'POST' },
      );
      assert.equal(missing.status, 404);
    });

    test('redelivery to a turned-off endpoint is 409 saying how to turn it on, and sends nothing', async () => {
      const hook = await create(['post.published']);
      receiver.secrets = [hook.secret];
      const sent = await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      await receiver.waitFor(1);
      const off = await client.json(`/api/v1/webhooks/${hook.id}`, {
        method: 'PATCH',
        json: { enabled: false },
      });
      assert.equal(off.status, 200);
      const res = await client.json(`/api/v1/webhooks/${hook.id}/deliveries/${sent.body.id}/redeliver`, {
        method: 'POST',
      });
      assert.equal(res.status, 409);
      assert.match(res.body.detail, /turned off/);
      assert.match(res.body.detail, /enabled/);
      const [d] = await deliveriesOf(client, hook.id);
      assert.equal(d?.status, 'delivered', 'the delivery is left as it was, not queued behind the switch');
    });

    test('a failed test to a turned-off endpoint is not retried, even once it is turned on', async () => {
      const hook = await create(['post.published']);
      receiver.secrets = [hook.secret];
      const off = await client.json(`/api/v1/webhooks/${hook.id}`, {
        method: 'PATCH',
        json: { enabled: false },
      });
      assert.equal(off.status, 200);
      receiver.respond = () => 500;
      try {
        const sent = await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
        assert.equal(sent.status, 200);
        assert.equal(
          sent.body.status,
          'failed',
          'a check of a turned-off endpoint has nobody waiting on retries',
        );
        assert.equal(sent.body.nextAttemptAt, null);
      } finally {
        receiver.respond = () => 204;
      }
      const before = receiver.received.length;
      const on = await client.json(`/api/v1/webhooks/${hook.id}`, {
        method: 'PATCH',
        json: { enabled: true },
      });
      assert.equal(on.status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(receiver.received.length, before, 'no stale webhook.test after turning it on');
    });

    test('after rotation deliveries carry both signatures; each secret verifies', async () => {
      const hook = await create(['post.published']);
      const rotated = await client.json(`/api/v1/webhooks/${hook.id}/rotate-secret`, { method: 'POST' });
      assert.equal(rotated.status, 200);
      assert.match(rotated.body.secret, /^whsec_/);
      assert.notEqual(rotated.body.secret, hook.secret);
      assert.ok(rotated.body.previousSecretExpiresAt);
      receiver.secrets = [hook.secret, rotated.body.secret];
      await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      const [got] = receiver.received;
      assert.equal(got!.headers['webhook-signature']!.split(' ').length, 2);
      assert.deepEqual(got!.verifiedWith, [hook.secret, rotated.body.secret]);
    });

    test('deleting an account sends account.disconnected', async () => {
      const { client: owner } = await signUp(app.url, 'disconnect');
      const account = await connectTelegram(owner, '@updates');
      const hook = await create(['account.disconnected'], owner);
      receiver.secrets = [hook.secret];
      assert.equal((await owner.fetch(`/api/v1/accounts/${account}`, { method: 'DELETE' })).status, 204);
      const [got] = await receiver.waitFor(1);
      const payload = got!.payload as { type: string; data: { id: string; platform: string } };
      assert.equal(payload.type, 'account.disconnected');
      assert.equal(payload.data.id, account);
      assert.ok(!JSON.stringify(payload).includes('botToken'));
    });

    test('URLs that reach private, loopback or metadata addresses, or plain http, are refused', async () => {
      for (const url of [
        'http://127.0.0.1:1/hooks',
        'https://10.0.0.8/hooks',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/x',
        'http://example.com/hooks',
        'https://user:pass@example.com/',
        'ftp://example.com/',
        'not a url',
      ]) {
        const res = await client.json('/api/v1/webhooks', { json: { url, events: ['post.published'] } });
        assert.equal(res.status, 422, url);
        assert.equal(res.body.code, 'validation_failed');
        assert.equal(res.body.errors[0].path, 'url');
      }
      const hook = await create(['post.published']);
      const moved = await client.json(`/api/v1/webhooks/${hook.id}`, {
        method: 'PATCH',
        json: { url: 'https://192.168.1.1/' },
      });
      assert.equal(moved.status, 422);
    });

    test('a body of the wrong shape is 400, bad values 422; another user’s webhook is 404 everywhere', async () => {
      for (const json of [
        { events: ['post.failed'] },
        { url: receiver.url, events: 'post.failed' },
        { url: receiver.url, events: ['post.failed'], description: 'nul \u0000 inside' },
        { url: `${receiver.url}\u0000`, events: ['post.failed'] },
      ]) {
        const res = await client.json('/api/v1/webhooks', { json });
        assert.equal(res.status, 400, JSON.stringify(json));
        assert.equal(res.body.code, 'invalid_request');
      }
      for (const json of [
        { url: receiver.url, events: [] },
        { url: receiver.url, events: ['post.nope'] },
        { url: receiver.url, events: ['post.failed', 'post.failed'] },
        { url: `https://example.com/${'a'.repeat(3000)}`, events: ['post.failed'] },
      ]) {
        const res = await client.json('/api/v1/webhooks', { json });
        assert.equal(res.status, 422, JSON.stringify(json));
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(res.body.errors[0].path.startsWith('events') || res.body.errors[0].path === 'url');
      }
      // webhook.test is in the contract's list of events; subscribing to it is allowed (and changes nothing).
      const withTest = await client.json('/api/v1/webhooks', {
        json: { url: receiver.url, events: ['post.failed', 'webhook.test'], unknownField: true },
      });
      assert.equal(withTest.status, 201);
      assert.deepEqual(withTest.body.events, ['post.failed', 'webhook.test']);
      assert.equal('unknownField' in withTest.body, false);
      const hook = await create(['post.published']);
      for (const query of ['?limit=0', '?limit=201', '?status=nope', '?cursor=garbage'])
        assert.equal(
          (await client.json(`/api/v1/webhooks/${hook.id}/deliveries${query}`)).status,
          400,
          query,
        );
      const sent = await client.json(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST' });
      const { client: other } = await signUp(app.url, 'other');
      const base = `/api/v1/webhooks/${hook.id}`;
      const attempts: [string, RequestInit & { json?: unknown }][] = [
        [base, {}],
        [base, { method: 'PATCH', json: { description: 'mine now' } }],
        [base, { method: 'DELETE' }],
        [`${base}/rotate-secret`, { method: 'POST' }],
        [`${base}/test`, { method: 'POST' }],
        [`${base}/deliveries`, {}],
        [`${base}/deliveries/${sent.body.id}/redeliver`, { method: 'POST' }],
        ['/api/v1/webhooks/not-a-uuid', {}],
      ];
      for (const [path, init] of attempts) {
        const res = await other.json(path, init);
        assert.equal(res.status, 404, `${init.method ?? 'GET'} ${path}`);
      }
      const list = await other.json('/api/v1/webhooks');
      assert.deepEqual(list.body.webhooks, []);
      assert.equal((await client.json(base)).body.description, 'tests');
    });

    test('MCP tools list, create, test, read the log of and delete webhooks', async () => {
      const { api } = await userWithToken(app.url, 'mcp-hooks');
      const mcp = new McpClient({ name: 'webhook-tests', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${api.token}` } },
        }),
      );
      try {
        const { tools } = await mcp.listTools();
        const names = tools.map((t) => t.name);
        for (const name of [
          'list_webhooks',
          'create_webhook',
          'delete_webhook',
          'test_webhook',
          'list_webhook_deliveries',
        ])
          assert.ok(names.includes(name), name);
        const call = async (name: string, args: Record<string, unknown>) =>
          // biome-ignore lint/suspicious/noExplicitAny: structured tool results are read as JSON
          (await mcp.callTool({ name, arguments: args })) as any;
        const created = await call('create_webhook', { url: receiver.url, events: ['post.failed'] });
        assert.ok(!created.isError, JSON.stringify(created));
        const { id, secret } = created.structuredContent;
        receiver.secrets = [secret];
        const tested = await call('test_webhook', { id });
        assert.equal(tested.structuredContent.status, 'delivered');
        assert.deepEqual(receiver.received[0]!.verifiedWith, [secret]);
        const log = await call('list_webhook_deliveries', { id });
        assert.equal(log.structuredContent.deliveries.length, 1);
        const listed = await call('list_webhooks', {});
        assert.ok(!JSON.stringify(listed.structuredContent).includes(secret));
        assert.equal(listed.structuredContent.webhooks.length, 1);
        const refused = await call('create_webhook', { url: 'https://10.1.2.3/', events: ['post.failed'] });
        assert.equal(refused.isError, true);
        assert.equal(refused.structuredContent.error.code, 'validation_failed');
        assert.ok(!(await call('delete_webhook', { id })).isError);
        assert.equal((await call('delete_webhook', { id })).structuredContent.error.code, 'not_found');
      } finally {
        await mcp.close();
      }
    });

    test('PATCH changes events and turns an endpoint off and on; DELETE removes it', async () => {
      const hook = await create(['post.published']);
      const off = await client.json(`/api/v1/webhooks/${hook.id}`, {
        method: 'PATCH',
        json: { enabled: false, events: ['post.failed', 'post.unknown'] },
      });
      assert.equal(off.status, 200);
      assert.equal(off.body.enabled, false);
      assert.deepEqual(off.body.events, ['post.failed', 'post.unknown']);
      const on = await client.json(`/api/v1/webhooks/${hook.id}`, {
        method: 'PATCH',
        json: { enabled: true },
      });
      assert.equal(on.body.enabled, true);
      assert.equal((await client.fetch(`/api/v1/webhooks/${hook.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await client.json(`/api/v1/webhooks/${hook.id}`)).status, 404);
    });
  });

  describe(`webhook deliveries survive a restart (${backend})`, () => {
    test('pending deliveries recorded before a stop are delivered after the next start', async () => {
      const receiver = await startWebhookReceiver();
      const telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News', username: 'news' } },
      });
      const dataDir = mkdtempSync(join(tmpdir(), 'postwave-hooks-'));
      const database = backend === 'postgres' ? await createPostgresDatabase() : undefined;
      // The data directory (generated keys) and the database outlive each app process.
      const shared = {
        DATA_DIR: dataDir,
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
        ...(database ? { DATABASE_URL: database.url } : {}),
      };
      let app: RunningApp | undefined;
      try {
        // First life: no worker runs, so the event stays pending when the process stops.
        app = await startApp('pglite', { ...shared, WEBHOOK_WORKER_ENABLED: 'false' });
        const { session, api } = await userWithToken(app.url, 'restart');
        const hook = (
          await api.json('/api/v1/webhooks', {
            json: { url: receiver.url, events: ['account.disconnected'] },
          })
        ).body;
        receiver.secrets = [hook.secret];
        const account = await connectTelegram(session, '@news');
        assert.equal((await api.fetch(`/api/v1/accounts/${account}`, { method: 'DELETE' })).status, 204);
        const [pending] = await deliveriesOf(api, hook.id);
        assert.equal(pending!.status, 'pending');
        assert.equal(pending!.attempts, 0);
        app.child.kill('SIGTERM');
        await app.exited;
        assert.equal(receiver.received.length, 0);

        // Second life, worker on: the delivery goes out without anything else happening.
        app = await startApp('pglite', shared);
        const [got] = await receiver.waitFor(1);
        assert.deepEqual(got!.verifiedWith, [hook.secret]);
        assert.equal((got!.payload as { type: string }).type, 'account.disconnected');
        const again = new Client(app.url).withToken(api.token!);
        const delivered = await until('the delivered row', async () => {
          const [d] = await deliveriesOf(again, hook.id);
          return d?.status === 'delivered' ? d : undefined;
        });
        assert.equal(delivered.id, pending!.id);
      } finally {
        await app?.stop();
        await receiver.close();
        await telegram.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
