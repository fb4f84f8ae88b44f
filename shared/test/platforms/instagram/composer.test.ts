import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { sampleJpeg, sampleMp4 } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, instagramFixture } from './setup.ts';

describe('Instagram first comment and alt text', () => {
  const fx = instagramFixture();
  const jpeg = (altText?: string) => ({
    ...fx.host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg'),
    ...(altText === undefined ? {} : { altText }),
  });
  const mp4 = () => fx.host.file(new Uint8Array(sampleMp4()), 'clip.mp4', 'video/mp4');

  beforeEach(() => {
    fx.fake.comments.length = 0;
  });

  it('posts the first comment under the published media with POST /{ig-media-id}/comments', async () => {
    const options = fx.publisher.optionsSchema.parse({ firstComment: '#bakery #bread' });
    const post = await fx.publisher.publish(
      { message: 'Fresh bread' },
      fx.account,
      [jpeg()],
      options,
      context(),
    );
    const comment = await fx.publisher.comment!(post, options.firstComment!, fx.account, options, context());
    assert.deepEqual(fx.fake.comments, [
      { id: comment.platformPostId, mediaId: post.platformPostId, text: '#bakery #bread' },
    ]);
    assert.equal(comment.url, post.url);
    const request = fx.fake.server.requests.findLast((r) => r.path.endsWith('/comments'))!;
    assert.equal(request.method, 'POST');
    assert.match(request.path, new RegExp(`/${post.platformPostId}/comments$`));
  });

  it('a comment on a deleted post is refused as Graph says (code 100, subcode 33)', async () => {
    const post = await fx.publisher.publish({ message: 'gone soon' }, fx.account, [jpeg()], {}, context());
    fx.fake.deleteMedia(post.platformPostId);
    const error = await rejection(fx.publisher.comment!(post, 'hello', fx.account, {}, context()));
    assert.equal(error.retryable, false);
    assert.match(error.message, /does not exist/);
    assert.equal(fx.fake.comments.length, 0);
  });

  it('the options refuse a first comment over 2200 characters', () => {
    assert.throws(() => fx.publisher.optionsSchema.parse({ firstComment: 'a'.repeat(2201) }));
    assert.equal(
      fx.publisher.optionsSchema.parse({ firstComment: 'a'.repeat(2200) }).firstComment?.length,
      2200,
    );
  });

  it('sends alt_text on an image container and on image carousel items, never on a reel', async () => {
    const single = await fx.publisher.publish(
      { message: 'one' },
      fx.account,
      [jpeg('A loaf on a board')],
      {},
      context(),
    );
    const container = (id: string) =>
      fx.fake.containers.get(fx.fake.media.find((m) => m.id === id)!.containerId)!;
    assert.equal(container(single.platformPostId).altText, 'A loaf on a board');

    const carousel = await fx.publisher.publish(
      { message: 'two' },
      fx.account,
      [jpeg('First'), jpeg(), { ...mp4(), altText: 'not sent for videos' }],
      {},
      context(),
    );
    assert.deepEqual(
      container(carousel.platformPostId).children.map((id) => fx.fake.containers.get(id)!.altText),
      ['First', undefined, undefined],
    );
  });

  it('Instagram refuses alt text over 1000 characters: nothing published', async () => {
    const before = fx.fake.media.length;
    const error = await rejection(
      fx.publisher.publish({ message: 'long alt' }, fx.account, [jpeg('x'.repeat(1001))], {}, context()),
    );
    assert.equal(error.retryable, false);
    assert.match(error.message, /alt_text/);
    assert.equal(fx.fake.media.length, before);
  });
});
