import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { mastodonError } from '../../../src/platforms/mastodon/errors.ts';
import type { MastodonPublisher } from '../../../src/platforms/mastodon/index.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import type { FakeMastodon } from '../../fakes/mastodon.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import { account, context, fastRetries, publisherFor, rejection, startMastodon } from './setup.ts';

let fake: FakeMastodon;
let publisher: MastodonPublisher;

before(async () => {
  fake = await startMastodon();
});
after(() => fake.close());
beforeEach(() => {
  fake.server.clearInjected();
  fake.server.requests.length = 0;
  fake.statuses.length = 0;
  publisher = publisherFor();
});

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
    fake.rateLimit({ path: statusPath, resetInMs: 20 });
    const ctx = context('post-429:masto-1');
    const result = await withRetry(
      () => publisher.publish({ message: 'hi' }, account(fake), [], {}, ctx),
      fastRetries(),
    );
    const requests = fake.calls('/api/v1/statuses');
    assert.equal(requests.length, 2);
    assert.deepEqual(
      requests.map((r) => r.headers['idempotency-key']),
      ['post-429:masto-1', 'post-429:masto-1'],
    );
    assert.equal(fake.statuses.length, 1);
    assert.equal(result.platformPostId, fake.statuses[0]!.id);
  });

  it('retries a 502 from the proxy in front of the instance', async () => {
    fake.failWith(502, { path: statusPath });
    const ctx = context();
    await withRetry(() => publisher.publish({ message: 'hi' }, account(fake), [], {}, ctx), fastRetries());
    assert.equal(fake.calls('/api/v1/statuses').length, 2);
    assert.equal(fake.statuses.length, 1);
  });

  it('a retry of a status that did post returns the same status instead of a second one', async () => {
    const ctx = context('post-dup:masto-1');
    const first = await publisher.publish({ message: 'once' }, account(fake), [], {}, ctx);
    const again = await publisher.publish({ message: 'once' }, account(fake), [], {}, ctx);
    assert.deepEqual(again, first);
    assert.equal(fake.statuses.length, 1);
  });

  it('retries a failed media upload before posting', async () => {
    fake.failWith(503, { path: /^\/api\/v2\/media$/ });
    const ctx = context();
    const png = memoryMedia(new Uint8Array(samplePng()), { filename: 'a.png', contentType: 'image/png' });
    await withRetry(
      () => publisher.publish({ message: 'pic' }, account(fake), [png], {}, ctx),
      fastRetries(),
    );
    assert.equal(fake.calls('/api/v2/media').length, 2);
    assert.equal(fake.statuses.length, 1);
  });

  it('does not retry a rejected status or a refused token', async () => {
    const long = await rejection(
      withRetry(
        () => publisher.publish({ message: 'a'.repeat(501) }, account(fake), [], {}, context()),
        fastRetries(),
      ),
    );
    assert.equal(long.code, 'content_rejected');
    assert.equal(fake.calls('/api/v1/statuses').length, 1);

    const denied = await rejection(
      withRetry(
        () => publisher.publish({ message: 'x' }, account(fake, 'bad'), [], {}, context()),
        fastRetries(),
      ),
    );
    assert.equal(denied.code, 'credentials_invalid');
    assert.equal(fake.calls('/api/v1/statuses').length, 2);
  });

  it('gives up after the policy on a persistent 5xx', async () => {
    fake.failWith(500, { path: statusPath, times: 10 });
    const ctx = context();
    const error = await rejection(
      withRetry(() => publisher.publish({ message: 'x' }, account(fake), [], {}, ctx), fastRetries()),
    );
    assert.equal(error.code, 'platform_unavailable');
    assert.equal(fake.calls('/api/v1/statuses').length, 3);
  });
});
