import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mastodonError } from '../../../src/platforms/mastodon/errors.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import { account, context, fastRetries, mastodonFixture, rejection } from './setup.ts';

const fx = mastodonFixture();

const statusPath = /^\/api\/v1\/statuses$/;

describe('Mastodon retries and idempotency', () => {
  it('reads X-RateLimit-Reset (ISO 8601) and prefers Retry-After', () => {
    const reset = new Date(Date.now() + 60_000).toISOString();
    const fromReset = mastodonError(
      429,
      { error: 'Too many requests' },
      new Headers({ 'x-ratelimit-reset': reset }),
      'status',
    );
    assert.equal(fromReset.code, 'rate_limited');
    assert.ok(
      fromReset.retryAfterMs! > 58_000 && fromReset.retryAfterMs! <= 60_000,
      String(fromReset.retryAfterMs),
    );
    const both = mastodonError(
      429,
      {},
      new Headers({ 'x-ratelimit-reset': reset, 'retry-after': '3' }),
      'status',
    );
    assert.equal(both.retryAfterMs, 3_000);
  });

  it('waits out a 429 and sends the same Idempotency-Key again', async () => {
    fx.fake.rateLimit({ path: statusPath, resetInMs: 20 });
    const ctx = context('post-429:masto-1');
    const result = await withRetry(
      () => fx.publisher.publish({ message: 'hi' }, account(fx.fake), [], {}, ctx),
      fastRetries(),
    );
    const requests = fx.fake.calls('/api/v1/statuses');
    assert.equal(requests.length, 2);
    assert.deepEqual(
      requests.map((r) => r.headers['idempotency-key']),
      ['post-429:masto-1', 'post-429:masto-1'],
    );
    assert.equal(fx.fake.statuses.length, 1);
    assert.equal(result.platformPostId, fx.fake.statuses[0]!.id);
  });

  it('retries a 502 from the proxy in front of the instance', async () => {
    fx.fake.failWith(502, { path: statusPath });
    const ctx = context();
    await withRetry(
      () => fx.publisher.publish({ message: 'hi' }, account(fx.fake), [], {}, ctx),
      fastRetries(),
    );
    assert.equal(fx.fake.calls('/api/v1/statuses').length, 2);
    assert.equal(fx.fake.statuses.length, 1);
  });

  it('a retry of a status that did post returns the same status instead of a second one', async () => {
    const ctx = context('post-dup:masto-1');
    const first = await fx.publisher.publish({ message: 'once' }, account(fx.fake), [], {}, ctx);
    const again = await fx.publisher.publish({ message: 'once' }, account(fx.fake), [], {}, ctx);
    assert.deepEqual(again, first);
    assert.equal(fx.fake.statuses.length, 1);
  });

  it('retries a failed media upload before posting', async () => {
    fx.fake.failWith(503, { path: /^\/api\/v2\/media$/ });
    const ctx = context();
    const png = memoryMedia(new Uint8Array(samplePng()), { filename: 'a.png', contentType: 'image/png' });
    await withRetry(
      () => fx.publisher.publish({ message: 'pic' }, account(fx.fake), [png], {}, ctx),
      fastRetries(),
    );
    assert.equal(fx.fake.calls('/api/v2/media').length, 2);
    assert.equal(fx.fake.statuses.length, 1);
  });

  it('does not retry a rejected status or a refused token', async () => {
    const long = await rejection(
      withRetry(
        () => fx.publisher.publish({ message: 'a'.repeat(501) }, account(fx.fake), [], {}, context()),
        fastRetries(),
      ),
    );
    assert.equal(long.code, 'content_rejected');
    assert.equal(fx.fake.calls('/api/v1/statuses').length, 1);

    const denied = await rejection(
      withRetry(
        () => fx.publisher.publish({ message: 'x' }, account(fx.fake, 'bad'), [], {}, context()),
        fastRetries(),
      ),
    );
    assert.equal(denied.code, 'credentials_invalid');
    assert.equal(fx.fake.calls('/api/v1/statuses').length, 2);
  });

  it('gives up after the policy on a persistent 5xx', async () => {
    fx.fake.failWith(500, { path: statusPath, times: 10 });
    const ctx = context();
    const error = await rejection(
      withRetry(() => fx.publisher.publish({ message: 'x' }, account(fx.fake), [], {}, ctx), fastRetries()),
    );
    assert.equal(error.code, 'platform_unavailable');
    assert.equal(fx.fake.calls('/api/v1/statuses').length, 3);
  });
});
