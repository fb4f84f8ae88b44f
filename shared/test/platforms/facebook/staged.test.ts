import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { facebookModule } from '../../../src/platforms/facebook/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeFacebook, startFakeFacebook } from '../../fakes/facebook.ts';
import { sampleMp4 } from '../../fakes/sample-media.ts';
import { MediaHost } from '../media-host.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';

const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:fb1`,
  logger: silentLogger,
  ...overrides,
});

describe('Facebook staged videos', () => {
  let fake: FakeFacebook;
  let host: MediaHost;
  let publisher: ReturnType<typeof facebookModule.create>;
  let page: PlatformAccount;
  const uploads = () => fake.requestsTo('POST', /\/videos$/).length;

  before(async () => {
    fake = await startFakeFacebook({ videoChunkBytes: 64 * 1024 });
    host = await new MediaHost().start();
    publisher = facebookModule.create({ ...fake.env(), FACEBOOK_RESUMABLE_VIDEO_BYTES: String(100 * 1024) });
  });
  after(async () => {
    await fake.close();
    await host.close();
  });
  beforeEach(() => {
    fake.server.requests.length = 0;
    page = {
      id: 'fb1',
      platform: 'facebook',
      platformAccountId: fake.pages[0]!.id,
      credentials: { pageAccessToken: fake.pageToken() },
    };
  });

  it('uploads an unpublished video ahead (in chunks when large); the publish only publishes it', async () => {
    const large = memoryMedia(patternBytes(300 * 1024, 4), {
      filename: 'large.mp4',
      contentType: 'video/mp4',
    });
    const staged = await publisher.stage!({ message: 'Big reveal' }, page, [large], {}, context());
    const { video: id } = JSON.parse(staged.handle) as { video: string };
    const video = fake.videos.get(id)!;
    assert.equal(video.published, false, 'shown nowhere before the due time');
    assert.equal(video.description, 'Big reveal');
    assert.ok(uploads() > 2, 'the chunked upload happened at staging');

    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'Big reveal' },
      page,
      [large],
      {},
      context({ staged: staged.handle }),
    );
    assert.equal(uploads(), 0, 'no upload at the due time');
    assert.deepEqual(
      fake.server.requests.map((r) => `${r.method} ${r.path.replace(/^\/v[\d.]+/, '')}`),
      [`POST /${id}`],
      'one call',
    );
    assert.equal(result.platformPostId, id);
    assert.equal(video.published, true);
  });

  it('uploads again when the post changed or the staged video was deleted', async () => {
    const small = host.file(new Uint8Array(sampleMp4()), 'small.mp4', 'video/mp4');
    const staged = await publisher.stage!({ message: 'before' }, page, [small], {}, context());
    fake.server.requests.length = 0;
    const edited = await publisher.publish(
      { message: 'after' },
      page,
      [small],
      {},
      context({ staged: staged.handle }),
    );
    assert.equal(uploads(), 1);
    assert.equal(fake.videos.get(edited.platformPostId)!.published, true);

    const again = await publisher.stage!({ message: 'same' }, page, [small], {}, context());
    fake.videos.delete((JSON.parse(again.handle) as { video: string }).video);
    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'same' },
      page,
      [small],
      {},
      context({ staged: again.handle }),
    );
    assert.equal(uploads(), 1, 'uploaded as usual');
    assert.equal(fake.videos.get(result.platformPostId)!.description, 'same');
  });

  it('discards a staged video that will not be published: deleted at the page; again is a no-op', async () => {
    const small = host.file(new Uint8Array(sampleMp4()), 'small.mp4', 'video/mp4');
    const staged = await publisher.stage!({ message: 'dropped' }, page, [small], {}, context());
    const { video: id } = JSON.parse(staged.handle) as { video: string };
    assert.ok(fake.videos.has(id));
    fake.server.requests.length = 0;
    await publisher.discardStaged!(staged.handle, page, context());
    assert.equal(fake.videos.has(id), false, 'the unpublished video is gone');
    assert.deepEqual(
      fake.server.requests.map((r) => `${r.method} ${r.path.replace(/^\/v[\d.]+/, '')}`),
      [`DELETE /${id}`],
    );
    assert.deepEqual(fake.deletedVideos.slice(-1), [id]);
    // Already gone (a retried discard): resolves; a handle not ours is ignored.
    await publisher.discardStaged!(staged.handle, page, context());
    await publisher.discardStaged!('not a handle', page, context());
  });

  it('a failed discard throws (the caller retries later): another page token is refused', async () => {
    const small = host.file(new Uint8Array(sampleMp4()), 'small.mp4', 'video/mp4');
    const staged = await publisher.stage!({ message: 'kept' }, page, [small], {}, context());
    const { video: id } = JSON.parse(staged.handle) as { video: string };
    const stranger = { ...page, credentials: { pageAccessToken: 'EAAnot-a-page-token' } };
    await assert.rejects(publisher.discardStaged!(staged.handle, stranger, context()));
    assert.ok(fake.videos.has(id), 'still there');
  });
});
