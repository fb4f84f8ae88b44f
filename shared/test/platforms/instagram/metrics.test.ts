import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { sampleJpeg } from '../../fakes/sample-media.ts';
import { context, instagramFixture } from './setup.ts';

const call = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

describe('Instagram metrics (contract section H)', () => {
  const fx = instagramFixture();

  it('reads media insights under the canonical names; a deleted media is gone', async () => {
    const photo = fx.host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg');
    const post = await fx.publisher.publish({ message: 'bread' }, fx.account, [photo], {}, context());
    fx.fake.figures.set(post.platformPostId, {
      views: 90,
      reach: 70,
      likes: 8,
      comments: 2,
      shares: 1,
      saved: 3,
    });
    const first = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.account, call());
    assert.deepEqual(first.get(post.platformPostId), {
      state: 'ok',
      metrics: { views: 90, reach: 70, likes: 8, comments: 2, shares: 1, saves: 3 },
    });
    const asked = fx.fake.server.requests.filter((r) => r.path.endsWith('/insights')).at(-1)!;
    assert.equal(asked.query.get('metric'), 'views,reach,likes,comments,shares,saved');

    fx.fake.figures.set(post.platformPostId, { likes: 11 });
    const second = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.account, call());
    assert.equal((second.get(post.platformPostId) as { metrics: { likes: number } }).metrics.likes, 11);

    fx.fake.deleteMedia(post.platformPostId);
    const gone = await fx.publisher.metrics!([{ platformPostId: post.platformPostId }], fx.account, call());
    assert.deepEqual(gone.get(post.platformPostId), { state: 'gone' });
  });

  it('reads followers_count of the account', async () => {
    fx.fake.figures.followers = 321;
    assert.deepEqual(await fx.publisher.accountMetrics!(fx.account, call()), { followers: 321 });
  });
});
