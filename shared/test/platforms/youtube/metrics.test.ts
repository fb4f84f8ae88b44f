import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { publishContext, sampleVideo, youTubeAccount, youTubeFixture } from './setup.ts';

const call = () => ({ signal: AbortSignal.timeout(10_000), logger: silentLogger });

describe('YouTube metrics (contract section H)', () => {
  const fx = youTubeFixture();

  it('reads view, like and comment counts with videos.list statistics; a deleted video is gone', async () => {
    const account = youTubeAccount(fx.fake);
    const video = await fx.publisher.publish(
      { message: 'Trailer' },
      account,
      [sampleVideo(300_000).file],
      { title: 'Trailer' },
      publishContext(),
    );
    fx.fake.figures.set(video.platformPostId, { viewCount: 1500, likeCount: 40, commentCount: 5 });
    const first = await fx.publisher.metrics!([{ platformPostId: video.platformPostId }], account, call());
    assert.deepEqual(first.get(video.platformPostId), {
      state: 'ok',
      metrics: { views: 1500, likes: 40, comments: 5 },
    });
    fx.fake.figures.set(video.platformPostId, { viewCount: 2100 });
    const second = await fx.publisher.metrics!([{ platformPostId: video.platformPostId }], account, call());
    assert.equal((second.get(video.platformPostId) as { metrics: { views: number } }).metrics.views, 2100);

    fx.fake.deleteVideo(video.platformPostId);
    const gone = await fx.publisher.metrics!([{ platformPostId: video.platformPostId }], account, call());
    assert.deepEqual(gone.get(video.platformPostId), { state: 'gone' });
  });

  it('reads the channel subscriberCount', async () => {
    fx.fake.figures.followers = 5400;
    assert.deepEqual(await fx.publisher.accountMetrics!(youTubeAccount(fx.fake), call()), {
      followers: 5400,
    });
  });
});
