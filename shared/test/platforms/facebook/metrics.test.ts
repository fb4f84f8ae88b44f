import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { context, facebookFixture } from './setup.ts';

const call = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

describe('Facebook metrics (contract section H)', () => {
  const fx = facebookFixture();

  it('reads reactions, comments and shares of a page post; a deleted post is gone', async () => {
    const post = await fx.publisher.publish({ message: 'open today' }, fx.page, [], {}, context());
    const first = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.page, call());
    assert.deepEqual(first.get(post.platformPostId), {
      state: 'ok',
      metrics: { likes: 0, comments: 0, reposts: 0 },
    });
    const asked = fx.fake.server.requests.filter((r) => r.path.endsWith(post.platformPostId)).at(-1)!;
    assert.equal(
      asked.query.get('fields'),
      'shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)',
    );

    fx.fake.figures.set(post.platformPostId, { reactions: 14, comments: 3, shares: 2 });
    const second = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.page, call());
    assert.deepEqual(second.get(post.platformPostId), {
      state: 'ok',
      metrics: { likes: 14, comments: 3, reposts: 2 },
    });

    fx.fake.deletePost(post.platformPostId);
    const gone = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.page, call());
    assert.deepEqual(gone.get(post.platformPostId), { state: 'gone' });
  });

  it('reads the page followers_count', async () => {
    fx.fake.figures.followers = 980;
    assert.deepEqual(await fx.publisher.accountMetrics!(fx.page, call()), { followers: 980 });
  });
});
