import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { type FakeThreads, startFakeThreads } from '../../fakes/threads.ts';
import { publishContext, threadsAccount, threadsPublisher } from './setup.ts';

let fake: FakeThreads;
let publisher: ReturnType<typeof threadsPublisher>;
before(async () => {
  fake = await startFakeThreads();
  publisher = threadsPublisher(fake);
});
after(() => fake.close());

const call = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

describe('Threads metrics (contract section H)', () => {
  it('reads media insights under the canonical names; a deleted post is gone', async () => {
    const account = threadsAccount(fake);
    const post = await publisher.publish({ message: 'count me' }, account, [], {}, publishContext());
    fake.figures.set(post.platformPostId, {
      views: 300,
      likes: 12,
      replies: 3,
      reposts: 2,
      quotes: 1,
      shares: 4,
    });
    const first = await publisher.metrics!([{ platformPostId: post.platformPostId }], account, call());
    assert.deepEqual(first.get(post.platformPostId), {
      state: 'ok',
      metrics: { views: 300, likes: 12, comments: 3, reposts: 2, quotes: 1, shares: 4 },
    });
    const asked = fake.requestsTo('GET', /\/insights$/).at(-1)!;
    assert.equal(asked.query.get('metric'), 'views,likes,replies,reposts,quotes,shares');

    fake.figures.set(post.platformPostId, { likes: 20 });
    const second = await publisher.metrics!([{ platformPostId: post.platformPostId }], account, call());
    assert.equal((second.get(post.platformPostId) as { metrics: { likes: number } }).metrics.likes, 20);

    fake.deletePost(post.platformPostId);
    const gone = await publisher.metrics!([{ platformPostId: post.platformPostId }], account, call());
    assert.deepEqual(gone.get(post.platformPostId), { state: 'gone' });
  });

  it('reads followers_count from threads_insights', async () => {
    fake.figures.followers = 77;
    assert.deepEqual(await publisher.accountMetrics!(threadsAccount(fake), call()), { followers: 77 });
  });

  it('a revoked token is needs_reconnect', async () => {
    const account = threadsAccount(fake);
    fake.revokeTokens();
    await assert.rejects(publisher.accountMetrics!(account, call()), { code: 'needs_reconnect' });
  });
});
