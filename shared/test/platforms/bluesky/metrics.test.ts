import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, blueskyFixture, context } from './setup.ts';

const fx = blueskyFixture();

describe('Bluesky metrics (contract section H)', () => {
  it('reads like, reply, repost and quote counts through getPosts; a deleted post is gone', async () => {
    const one = await fx.publisher.publish({ message: 'one' }, account(), [], {}, context());
    const two = await fx.publisher.publish({ message: 'two' }, account(), [], {}, context());
    fx.fake.figures.set(one.platformPostId, { likeCount: 5, replyCount: 1, repostCount: 2, quoteCount: 1 });
    const targets = [{ platformPostId: one.platformPostId }, { platformPostId: two.platformPostId }];
    const first = await fx.publisher.metrics(targets, account(), context());
    assert.deepEqual(first.get(one.platformPostId), {
      state: 'ok',
      metrics: { likes: 5, comments: 1, reposts: 2, quotes: 1 },
    });
    assert.deepEqual(first.get(two.platformPostId), {
      state: 'ok',
      metrics: { likes: 0, comments: 0, reposts: 0, quotes: 0 },
    });
    const lookup = fx.fake.server.requests.filter((r) => r.path === '/xrpc/app.bsky.feed.getPosts');
    assert.equal(lookup.length, 1);
    assert.deepEqual(lookup[0]!.query.getAll('uris'), [one.platformPostId, two.platformPostId]);

    fx.fake.figures.set(one.platformPostId, { likeCount: 8 });
    fx.fake.deleteRecord(two.platformPostId);
    const second = await fx.publisher.metrics(targets, account(), context());
    assert.equal((second.get(one.platformPostId) as { metrics: { likes: number } }).metrics.likes, 8);
    assert.deepEqual(second.get(two.platformPostId), { state: 'gone' });
  });

  it('reads followersCount of the own profile', async () => {
    fx.fake.figures.followers = 17;
    assert.deepEqual(await fx.publisher.accountMetrics(account(), context()), { followers: 17 });
  });
});
