import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { instagramModule } from '../../../src/platforms/instagram/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeInstagram, startFakeInstagram } from '../../fakes/instagram.ts';
import { sampleJpeg, sampleMp4 } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { MediaHost } from '../media-host.ts';

const context = (): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:ig1`,
  logger: silentLogger,
});

describe('Instagram first comment and alt text', () => {
  let fake: FakeInstagram;
  let host: MediaHost;
  let publisher: ReturnType<typeof instagramModule.create>;
  let account: PlatformAccount;
  const jpeg = (altText?: string) => ({
    ...host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg'),
    ...(altText === undefined ? {} : { altText }),
  });
  const mp4 = () => host.file(new Uint8Array(sampleMp4()), 'clip.mp4', 'video/mp4');

  before(async () => {
    fake = await startFakeInstagram({ videoProcessingPolls: 0 });
    host = await new MediaHost().start();
    publisher = instagramModule.create(fake.env());
  });
  after(async () => {
    await fake.close();
    await host.close();
  });
  beforeEach(() => {
    fake.server.clearInjected();
    fake.quotaUsage = 0;
    fake.comments.length = 0;
    account = {
      id: 'ig1',
      platform: 'instagram',
      platformAccountId: fake.account.id,
      credentials: fake.credentials(),
    };
  });

  it('posts the first comment under the published media with POST /{ig-media-id}/comments', async () => {
    const options = publisher.optionsSchema.parse({ firstComment: '#bakery #bread' });
    const post = await publisher.publish({ message: 'Fresh bread' }, account, [jpeg()], options, context());
    const comment = await publisher.comment!(post, options.firstComment!, account, options, context());
    assert.deepEqual(fake.comments, [
      { id: comment.platformPostId, mediaId: post.platformPostId, text: '#bakery #bread' },
    ]);
    assert.equal(comment.url, post.url);
    const request = fake.server.requests.findLast((r) => r.path.endsWith('/comments'))!;
    assert.equal(request.method, 'POST');
    assert.match(request.path, new RegExp(`/${post.platformPostId}/comments$`));
  });

  it('a comment on a deleted post is refused as Graph says (code 100, subcode 33)', async () => {
    const post = await publisher.publish({ message: 'gone soon' }, account, [jpeg()], {}, context());
    fake.deleteMedia(post.platformPostId);
    const error = await rejection(publisher.comment!(post, 'hello', account, {}, context()));
    assert.equal(error.retryable, false);
    assert.match(error.message, /does not exist/);
    assert.equal(fake.comments.length, 0);
  });

  it('the options refuse a first comment over 2200 characters', () => {
    assert.throws(() => publisher.optionsSchema.parse({ firstComment: 'a'.repeat(2201) }));
    assert.equal(
      publisher.optionsSchema.parse({ firstComment: 'a'.repeat(2200) }).firstComment?.length,
      2200,
    );
  });

  it('sends alt_text on an image container and on image carousel items, never on a reel', async () => {
    const single = await publisher.publish(
      { message: 'one' },
      account,
      [jpeg('A loaf on a board')],
      {},
      context(),
    );
    const container = (id: string) => fake.containers.get(fake.media.find((m) => m.id === id)!.containerId)!;
    assert.equal(container(single.platformPostId).altText, 'A loaf on a board');

    const carousel = await publisher.publish(
      { message: 'two' },
      account,
      [jpeg('First'), jpeg(), { ...mp4(), altText: 'not sent for videos' }],
      {},
      context(),
    );
    assert.deepEqual(
      container(carousel.platformPostId).children.map((id) => fake.containers.get(id)!.altText),
      ['First', undefined, undefined],
    );
  });

  it('Instagram refuses alt text over 1000 characters: nothing published', async () => {
    const before = fake.media.length;
    const error = await rejection(
      publisher.publish({ message: 'long alt' }, account, [jpeg('x'.repeat(1001))], {}, context()),
    );
    assert.equal(error.retryable, false);
    assert.match(error.message, /alt_text/);
    assert.equal(fake.media.length, before);
  });
});
