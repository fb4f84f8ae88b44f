import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newWebhookSecret } from '@postwave/shared';
import { type FakeTelegram, startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { ConfigError, loadConfig } from '../src/config.ts';
import { apiKey, fakeTelegram, startTestServer, type TestServer } from './helpers.ts';

/**
 * SERVICE_WEBHOOK_URL / SERVICE_WEBHOOK_SECRET: every publish's outcome reaches a local receiver
 * that verifies it with the `standardwebhooks` package; failures are retried in memory.
 */
describe('self-hosted service webhook', () => {
  let telegram: FakeTelegram;
  let receiver: WebhookReceiver;
  let server: TestServer;
  const secret = newWebhookSecret();

  before(async () => {
    telegram = await fakeTelegram();
    receiver = await startWebhookReceiver();
    receiver.secrets = [secret];
    server = await startTestServer({
      telegram,
      env: {
        SERVICE_WEBHOOK_URL: receiver.url,
        SERVICE_WEBHOOK_SECRET: secret,
        SERVICE_WEBHOOK_RETRY_SCHEDULE: '50ms,50ms',
      },
    });
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
    await telegram?.close();
  });

  test('a publish sends post.published, signed and verifiable', async () => {
    receiver.received.length = 0;
    const res = await server.api('/api/v1/posts', {
      json: { message: 'hello', accountIds: ['tg-main'], postingMode: 'now' },
    });
    assert.equal(res.status, 200);
    const [got] = await receiver.waitFor(1);
    assert.deepEqual(got!.verifiedWith, [secret]);
    const payload = got!.payload as {
      type: string;
      data: { status: string; results: { accountId: string }[] };
    };
    assert.equal(payload.type, 'post.published');
    assert.equal(payload.data.status, 'posted');
    assert.equal(payload.data.results[0]!.accountId, 'tg-main');
    assert.ok(!server.logs.join('\n').includes(secret), 'the secret is never logged');
  });

  test('a partial publish sends post.partially_published; a failing receiver is retried', async () => {
    receiver.received.length = 0;
    receiver.respond = (i) => (i === 0 ? 503 : 200);
    const res = await server.api('/api/v1/posts', {
      json: { message: 'partly', accountIds: ['tg-main', 'tg-gone'], postingMode: 'now' },
    });
    assert.equal(res.status, 207);
    const received = await receiver.waitFor(2);
    assert.equal(received[0]!.headers['webhook-id'], received[1]!.headers['webhook-id']);
    assert.equal((received[1]!.payload as { type: string }).type, 'post.partially_published');
    receiver.respond = () => 204;
  });

  test('a receiver that never answers 2xx is given up after the bounded retries', async () => {
    receiver.received.length = 0;
    receiver.respond = () => 500;
    await server.api('/api/v1/posts', {
      json: { message: 'nobody home', accountIds: ['tg-gone'], postingMode: 'now' },
    });
    await receiver.waitFor(3);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(receiver.received.length, 3, 'one attempt and two retries, then nothing');
    assert.equal((receiver.received[0]!.payload as { type: string }).type, 'post.failed');
    assert.equal(server.services.webhook?.queued, 0);
    receiver.respond = () => 204;
  });

  test('the URL and secret are checked at start', () => {
    const base = { SERVICE_API_KEY: apiKey };
    assert.throws(() => loadConfig({ ...base, SERVICE_WEBHOOK_URL: 'https://example.com/h' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, SERVICE_WEBHOOK_SECRET: secret }), ConfigError);
    assert.throws(
      () =>
        loadConfig({
          ...base,
          SERVICE_WEBHOOK_URL: 'https://example.com/h',
          SERVICE_WEBHOOK_SECRET: 'short',
        }),
      /whsec_/,
    );
    assert.throws(
      () => loadConfig({ ...base, SERVICE_WEBHOOK_URL: 'not a url', SERVICE_WEBHOOK_SECRET: secret }),
      /SERVICE_WEBHOOK_URL/,
    );
    assert.ok(
      loadConfig({ ...base, SERVICE_WEBHOOK_URL: 'https://example.com/h', SERVICE_WEBHOOK_SECRET: secret })
        .webhook,
    );
    assert.equal(loadConfig(base).webhook, undefined);
  });
});
