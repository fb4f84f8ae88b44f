import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, context, mastodonFixture } from './setup.ts';

const fx = mastodonFixture();

describe('Mastodon metrics (contract section H)', () => {
  it('reads favourites, replies and boosts per status; a deleted status is gone', async () => {
    const post = await fx.publisher.publish({ message: 'Count me' }, account(fx.fake), [], {}, context());
    await fx.publisher.publish(
      { message: 'reply' },
      account(fx.fake),
      [],
      {},
      {
        ...context(),
        replyTo: { parent: post, root: post },
      },
    );
    Object.assign(fx.fake.statuses[0]!, { favourites: 4, reblogs: 2 });
    const metrics = await fx.publisher.metrics(
      [{ platformPostId: post.platformPostId }],
      account(fx.fake),
      context(),
    );
    assert.deepEqual(metrics.get(post.platformPostId), {
      state: 'ok',
      metrics: { likes: 4, comments: 1, reposts: 2 },
    });
    fx.fake.deleteStatus(post.platformPostId);
    const gone = await fx.publisher.metrics(
      [{ platformPostId: post.platformPostId }],
      account(fx.fake),
      context(),
    );
    assert.deepEqual(gone.get(post.platformPostId), { state: 'gone' });
  });

  it('reads followers from verify_credentials', async () => {
    assert.deepEqual(await fx.publisher.accountMetrics(account(fx.fake), context()), { followers: 0 });
  });
});
