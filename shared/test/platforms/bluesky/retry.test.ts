import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyXrpcError, XrpcError } from '../../../src/platforms/bluesky/xrpc.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { account, blueskyFixture, context, fastRetries, publisherFor, rejection } from './setup.ts';

const fx = blueskyFixture();

const publishWithRetries = (message: string, idempotencyKey?: string) => {
  const ctx = context(idempotencyKey);
  return withRetry(() => fx.publisher.publish({ message }, account(), [], {}, ctx), fastRetries());
};

describe('Bluesky retries', () => {
  it('reads ratelimit-reset (epoch seconds) into retryAfterMs', () => {
    const reset = Math.floor(Date.now() / 1000) + 30;
    const headers = new Headers({ 'ratelimit-reset': String(reset) });
    const error = classifyXrpcError(
      new XrpcError(429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }, headers),
    );
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, true);
    assert.ok(error.retryAfterMs! > 28_000 && error.retryAfterMs! <= 30_000, String(error.retryAfterMs));
  });

  it('waits out a 429 on createRecord and posts once', async () => {
    fx.fake.rateLimit({ nsid: 'com.atproto.repo.createRecord' });
    await publishWithRetries('rate limited once');
    assert.equal(fx.fake.calls('com.atproto.repo.createRecord').length, 2);
    assert.equal(fx.fake.records.length, 1);
  });

  it('retries a 502 from the PDS', async () => {
    fx.fake.failWith(502, { nsid: 'com.atproto.repo.createRecord' });
    await publishWithRetries('upstream blip');
    assert.equal(fx.fake.records.length, 1);
  });

  it('gives up after the policy on persistent 5xx, as platform_unavailable', async () => {
    fx.fake.failWith(500, { nsid: 'com.atproto.repo.createRecord', times: 10 });
    const error = await rejection(publishWithRetries('down'));
    assert.equal(error.code, 'platform_unavailable');
    assert.equal(fx.fake.calls('com.atproto.repo.createRecord').length, 3);
  });

  it('does not retry a rejected post', async () => {
    const error = await rejection(publishWithRetries('x'.repeat(301)));
    assert.equal(error.code, 'content_rejected');
    assert.equal(fx.fake.calls('com.atproto.repo.createRecord').length, 1);
  });

  it('does not retry a refused login', async () => {
    const ctx = context();
    const bad = account({ handle: 'alice.test', appPassword: 'wrong' });
    const error = await rejection(
      withRetry(() => fx.publisher.publish({ message: 'x' }, bad, [], {}, ctx), fastRetries()),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.equal(fx.fake.calls('com.atproto.server.createSession').length, 1);
  });

  it('a retry after a lost answer finds the created post instead of posting twice', async () => {
    fx.fake.loseCreateRecordAnswer();
    const result = await publishWithRetries('posted, answer lost', 'post-lost:bsky');
    assert.equal(fx.fake.records.length, 1);
    assert.equal(result.platformPostId, fx.fake.records[0]!.uri);
    assert.equal(fx.fake.calls('com.atproto.repo.createRecord').length, 1);
    assert.equal(fx.fake.calls('com.atproto.repo.getRecord').length, 1);
  });

  it('after a crash, a new process resumes with the stored record key: it finds the post, never posts twice', async () => {
    const handle = fx.publisher.dedupeHandle();
    assert.equal(fx.publisher.dedupe, 'lookup');
    fx.fake.loseCreateRecordAnswer();
    const first = { ...context('post-crash:bsky'), dedupeHandle: handle };
    await assert.rejects(
      fx.publisher.publish({ message: 'sent before the crash' }, account(), [], {}, first),
    );
    assert.equal(fx.fake.records.length, 1);
    // The process died; its successor knows only the stored intent.
    const successor = publisherFor(fx.fake);
    const resumed = { ...context('post-crash:bsky'), dedupeHandle: handle, resumed: { since: new Date() } };
    const result = await successor.publish({ message: 'sent before the crash' }, account(), [], {}, resumed);
    assert.equal(fx.fake.records.length, 1);
    assert.equal(result.platformPostId, fx.fake.records[0]!.uri);
    assert.ok(result.platformPostId.endsWith(`/${handle}`), 'the stored record key');
    assert.equal(fx.fake.calls('com.atproto.repo.createRecord').length, 1);
  });

  it('a resumed publish whose earlier send never arrived creates the record with the stored key', async () => {
    const handle = fx.publisher.dedupeHandle();
    const resumed = {
      ...context('post-never-sent:bsky'),
      dedupeHandle: handle,
      resumed: { since: new Date() },
    };
    const result = await publisherFor(fx.fake).publish(
      { message: 'never arrived' },
      account(),
      [],
      {},
      resumed,
    );
    assert.equal(fx.fake.records.length, 1);
    assert.ok(result.platformPostId.endsWith(`/${handle}`));
  });
});
