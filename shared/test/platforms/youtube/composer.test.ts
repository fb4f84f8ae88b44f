import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { startFakeYouTube, youTubeReadonlyScope, youTubeUploadScope } from '../../fakes/youtube.ts';
import { rejection } from '../../support/platform-testing.ts';
import { publishContext, sampleVideo, youTubeAccount, youTubeFixture, youTubePublisher } from './setup.ts';

describe('YouTube first comment (commentThreads.insert)', () => {
  const fx = youTubeFixture();
  beforeEach(() => {
    fx.fake.comments.length = 0;
  });

  const upload = () =>
    fx.publisher.publish(
      { message: 'My video' },
      youTubeAccount(fx.fake),
      [sampleVideo(64 * 1024).file],
      {},
      publishContext(),
    );

  it('comments on the uploaded video as the channel and links to the comment', async () => {
    const options = fx.publisher.optionsSchema.parse({ firstComment: 'Chapters: 0:00 intro' });
    const video = await upload();
    const comment = await fx.publisher.comment!(
      video,
      options.firstComment!,
      youTubeAccount(fx.fake),
      options,
      publishContext(),
    );
    assert.deepEqual(fx.fake.comments, [
      {
        id: comment.platformPostId,
        videoId: video.platformPostId,
        channelId: fx.fake.channel!.id,
        textOriginal: 'Chapters: 0:00 intro',
      },
    ]);
    assert.equal(
      comment.url,
      `https://www.youtube.com/watch?v=${video.platformPostId}&lc=${comment.platformPostId}`,
    );
    const request = fx.fake.server.requests.findLast((r) => r.path === '/youtube/v3/commentThreads')!;
    assert.equal(request.query.get('part'), 'snippet');
  });

  it('a video with comments turned off: 403 commentsDisabled, target_unreachable', async () => {
    const video = await upload();
    fx.fake.videos.find((v) => v.id === video.platformPostId)!.commentsDisabled = true;
    const error = await rejection(
      fx.publisher.comment!(video, 'hi', youTubeAccount(fx.fake), {}, publishContext()),
    );
    assert.equal(error.code, 'target_unreachable');
    assert.match(error.message, /commentsDisabled/);
    assert.equal(fx.fake.comments.length, 0);
  });

  it('a deleted video: 404 videoNotFound, target_unreachable', async () => {
    const video = await upload();
    fx.fake.deleteVideo(video.platformPostId);
    const error = await rejection(
      fx.publisher.comment!(video, 'hi', youTubeAccount(fx.fake), {}, publishContext()),
    );
    assert.equal(error.code, 'target_unreachable');
    assert.equal(error.status, 404);
    assert.match(error.message, /videoNotFound/);
  });

  it('a connection without youtube.force-ssl must be reconnected to comment', async () => {
    const narrow = await startFakeYouTube({ scopes: [youTubeUploadScope, youTubeReadonlyScope] });
    try {
      const narrowPublisher = youTubePublisher(narrow);
      const video = await narrowPublisher.publish(
        { message: 'v' },
        youTubeAccount(narrow),
        [sampleVideo(64 * 1024).file],
        {},
        publishContext(),
      );
      const error = await rejection(
        narrowPublisher.comment!(video, 'hi', youTubeAccount(narrow), {}, publishContext()),
      );
      assert.equal(error.code, 'needs_reconnect');
    } finally {
      await narrow.close();
    }
  });

  it('the options refuse a first comment over 10000 characters', () => {
    assert.throws(() => fx.publisher.optionsSchema.parse({ firstComment: 'a'.repeat(10_001) }));
  });
});
