import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { type FakeX, startFakeX } from '../../fakes/x.ts';
import { publishContext, xAccount, xPublisher } from './setup.ts';

let fake: FakeX;
let publisher: ReturnType<typeof xPublisher>;
before(async () => {
  fake = await startFakeX();
  publisher = xPublisher(fake);
});
after(() => fake.close());

const call = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

describe('X metrics (contract section H)', () => {
  it('reads public_metrics of many posts in one lookup; a deleted post is gone', async () => {
    const account = xAccount(fake);
    const first = await publisher.publish({ message: 'one' }, account, [], {}, publishContext());
    const second = await publisher.publish({ message: 'two' }, account, [], {}, publishContext());
    fake.figures.set(first.platformPostId, { like_count: 3, impression_count: 120, bookmark_count: 1 });
    fake.figures.set(second.platformPostId, { retweet_count: 2, quote_count: 1, reply_count: 4 });
    const before = fake.server.requests.length;
    const metrics = await publisher.metrics!(
      [{ platformPostId: first.platformPostId }, { platformPostId: second.platformPostId }],
      account,
      call(),
    );
    assert.equal(fake.server.requests.length - before, 1, 'one lookup for both posts');
    assert.deepEqual(metrics.get(first.platformPostId), {
      state: 'ok',
      metrics: { impressions: 120, likes: 3, comments: 0, reposts: 0, quotes: 0, saves: 1 },
    });
    assert.deepEqual(metrics.get(second.platformPostId), {
      state: 'ok',
      metrics: { impressions: 0, likes: 0, comments: 4, reposts: 2, quotes: 1, saves: 0 },
    });

    fake.figures.set(first.platformPostId, { like_count: 9 });
    fake.figures.delete(second.platformPostId);
    const later = await publisher.metrics!(
      [{ platformPostId: first.platformPostId }, { platformPostId: second.platformPostId }],
      account,
      call(),
    );
    assert.equal((later.get(first.platformPostId) as { metrics: { likes: number } }).metrics.likes, 9);
    assert.deepEqual(later.get(second.platformPostId), { state: 'gone' });
    assert.equal(publisher.metricsBatchSize, 100);
  });

  it('reads followers from users/me public_metrics', async () => {
    fake.figures.followers = 42;
    assert.deepEqual(await publisher.accountMetrics!(xAccount(fake), call()), { followers: 42 });
  });

  it('a refused token is needs_reconnect', async () => {
    const account = xAccount(fake, { accessToken: 'revoked' });
    await assert.rejects(publisher.accountMetrics!(account, call()), (error: { code?: string }) =>
      ['needs_reconnect', 'credentials_invalid'].includes(error.code ?? ''),
    );
  });
});
