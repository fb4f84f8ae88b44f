import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { linkedInModule } from '../../../src/platforms/linkedin/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeLinkedIn, startFakeLinkedIn } from '../../fakes/linkedin.ts';
import { sampleJpeg } from '../../fakes/sample-media.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';

const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:li1`,
  logger: silentLogger,
  ...overrides,
});

describe('LinkedIn staged media', () => {
  let fake: FakeLinkedIn;
  let publisher: ReturnType<typeof linkedInModule.create>;
  let member: PlatformAccount;
  const uploadCalls = () =>
    fake.server.requests.filter(
      (r) =>
        (r.method === 'POST' && /^\/rest\/(videos|images)$/.test(r.path)) ||
        r.path.startsWith('/dms-uploads/'),
    ).length;
  const video = () => memoryMedia(patternBytes(150_000, 7), { filename: 'v.mp4', contentType: 'video/mp4' });

  before(async () => {
    fake = await startFakeLinkedIn({ videoPartBytes: 64 * 1024, videoProcessingPolls: 3 });
    publisher = linkedInModule.create(fake.env());
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.server.requests.length = 0;
    member = {
      id: 'li1',
      platform: 'linkedin',
      platformAccountId: fake.memberUrn,
      credentials: fake.credentials(),
    };
  });

  it('registers, uploads and processes the video ahead; the due time checks it and creates the post', async () => {
    const file = video();
    const staged = await publisher.stage!({ message: 'demo' }, member, [file], {}, context());
    const { content } = JSON.parse(staged.handle) as { content: { media: { id: string } } };
    assert.ok(uploadCalls() >= 3, 'initialize, parts and finalize at staging');
    assert.equal(fake.videos.get(content.media.id)?.status, 'AVAILABLE', 'processed at staging');
    assert.equal(fake.posts.length, 0);

    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'demo' },
      member,
      [file],
      {},
      context({ staged: staged.handle }),
    );
    assert.equal(uploadCalls(), 0, 'no upload at the due time');
    assert.deepEqual(
      fake.server.requests.map((r) => `${r.method} ${r.path}`),
      [`GET /rest/videos/${encodeURIComponent(content.media.id)}`, 'POST /rest/posts'],
    );
    const post = fake.posts.find((p) => p.urn === result.platformPostId);
    assert.deepEqual(post?.content, { media: { id: content.media.id } });
  });

  it('stages images too; a handle for other files or a vanished asset means uploading as usual', async () => {
    const jpeg = memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'p.jpg', contentType: 'image/jpeg' });
    const staged = await publisher.stage!({ message: 'pic' }, member, [jpeg], {}, context());
    const { content } = JSON.parse(staged.handle) as { content: { media: { id: string } } };
    fake.images.delete(content.media.id);
    fake.server.requests.length = 0;
    await publisher.publish({ message: 'pic' }, member, [jpeg], {}, context({ staged: staged.handle }));
    assert.ok(uploadCalls() > 0, 'uploaded again');

    const other = memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'q.jpg', contentType: 'image/jpeg' });
    const again = await publisher.stage!({ message: 'x' }, member, [jpeg], {}, context());
    fake.server.requests.length = 0;
    await publisher.publish(
      { message: 'other file' },
      member,
      [other],
      {},
      context({ staged: again.handle }),
    );
    assert.ok(uploadCalls() > 0, 'the handle is for other media');
  });
});
