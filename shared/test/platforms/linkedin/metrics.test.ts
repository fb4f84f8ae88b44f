import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { context, linkedInFixture } from './setup.ts';

const call = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

describe('LinkedIn metrics (contract section H)', () => {
  const fx = linkedInFixture();

  it('reads likes and comments from socialActions; a deleted post is gone', async () => {
    const post = await fx.publisher.publish({ message: 'hiring' }, fx.member, [], {}, context());
    const reader = {
      ...fx.member,
      credentials: fx.fake.credentials({
        scopes: ['openid', 'profile', 'w_member_social', 'r_member_social'],
      }),
    };
    fx.fake.figures.set(post.platformPostId, { likes: 6, comments: 2 });
    const first = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], reader, call());
    assert.deepEqual(first.get(post.platformPostId), { state: 'ok', metrics: { likes: 6, comments: 2 } });

    fx.fake.figures.set(post.platformPostId, { likes: 7 });
    const second = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], reader, call());
    assert.deepEqual(second.get(post.platformPostId), { state: 'ok', metrics: { likes: 7, comments: 2 } });

    fx.fake.deletePost(post.platformPostId);
    const gone = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], reader, call());
    assert.deepEqual(gone.get(post.platformPostId), { state: 'gone' });
  });

  it('without the read permission reports nothing rather than asking to reconnect', async () => {
    const post = await fx.publisher.publish({ message: 'no insight' }, fx.member, [], {}, context());
    const answer = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.member, call());
    assert.equal(answer.size, 0);
  });
});
