import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  defaultWebhookRetrySchedule,
  isWebhookSecret,
  newWebhookSecret,
  parseWebhookRetrySchedule,
  postEventType,
  sendWebhook,
  signWebhook,
} from '../../src/index.ts';
import { startWebhookReceiver } from '../fakes/webhook-receiver.ts';

describe('webhook signing (Standard Webhooks)', () => {
  test('a signature verifies with the standardwebhooks package; two secrets give two signatures', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    assert.ok(isWebhookSecret(a));
    const message = { id: 'msg_1', timestamp: new Date(), body: '{"type":"webhook.test"}' };
    const one = signWebhook(message, [a]);
    assert.match(one['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
    assert.deepEqual(new Webhook(a).verify(message.body, { ...one }), { type: 'webhook.test' });
    const both = signWebhook(message, [b, a]);
    assert.equal(both['webhook-signature'].split(' ').length, 2);
    for (const secret of [a, b]) new Webhook(secret).verify(message.body, { ...both });
    assert.throws(() => new Webhook(newWebhookSecret()).verify(message.body, { ...both }));
    assert.throws(() => new Webhook(a).verify(`${message.body} `, { ...one }));
  });

  test('secrets are checked for form and length', () => {
    for (const bad of ['', 'whsec_', 'whsec_c2hvcnQ=', 'sk_abcdefghijklmnopqrstuvwxyz012345', 'whsec_!!!!'])
      assert.equal(isWebhookSecret(bad), false, bad);
  });

  test('retry schedules parse from text; the default is the documented one', () => {
    assert.deepEqual(parseWebhookRetrySchedule('5s, 5m,30m,2h,5h,10h,10h'), defaultWebhookRetrySchedule);
    assert.deepEqual(parseWebhookRetrySchedule('100ms,1d'), [100, 86_400_000]);
    assert.throws(() => parseWebhookRetrySchedule('5 minutes'), /5 minutes/);
    assert.throws(() => parseWebhookRetrySchedule(''), /at least one/);
  });

  test('post event types follow the targets’ outcomes', () => {
    assert.equal(postEventType([{ status: 'posted' }, { status: 'posted' }]), 'post.published');
    assert.equal(postEventType([{ status: 'posted' }, { status: 'failed' }]), 'post.partially_published');
    assert.equal(postEventType([{ status: 'failed' }]), 'post.failed');
    assert.equal(postEventType([{ status: 'posted' }, { status: 'unknown' }]), 'post.unknown');
  });

  test('sendWebhook reports status, time and errors; a slow receiver times out', async () => {
    const receiver = await startWebhookReceiver();
    const secret = newWebhookSecret();
    receiver.secrets = [secret];
    try {
      const message = { id: 'msg_2', timestamp: new Date(), body: '{}' };
      const ok = await sendWebhook(fetch, receiver.url, message, [secret]);
      assert.equal(ok.ok, true);
      assert.equal(ok.status, 204);
      assert.deepEqual(receiver.received[0]!.verifiedWith, [secret]);
      receiver.respond = () => 500;
      const failed = await sendWebhook(fetch, receiver.url, message, [secret]);
      assert.deepEqual([failed.ok, failed.status, failed.error], [false, 500, 'HTTP 500']);
      receiver.respond = () => new Promise((r) => setTimeout(() => r(200), 500));
      const slow = await sendWebhook(fetch, receiver.url, message, [secret], { timeoutMs: 50 });
      assert.equal(slow.ok, false);
      assert.match(slow.error ?? '', /no answer within/);
      const refused = await sendWebhook(fetch, 'http://127.0.0.1:1/', message, [secret]);
      assert.equal(refused.ok, false);
      assert.equal(refused.status, null);
    } finally {
      await receiver.close();
    }
  });
});
