import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { sampleJpeg } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, facebookFixture } from './setup.ts';

describe('Facebook first comment and alt text', () => {
  const fx = facebookFixture();
  const jpeg = (altText?: string) => ({
    ...fx.host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg'),
    ...(altText === undefined ? {} : { altText }),
  });

  beforeEach(() => {
    fx.fake.comments.length = 0;
  });

  it('posts the first comment as the fx.page with POST /{post-id}/comments', async () => {
    const options = fx.publisher.optionsSchema.parse({ firstComment: 'Menu: https://example.com/menu' });
    const post = await fx.publisher.publish(
      { message: `Open today ${Math.random()}` },
      fx.page,
      [],
      options,
      context(),
    );
    const comment = await fx.publisher.comment!(post, options.firstComment!, fx.page, options, context());
    assert.deepEqual(fx.fake.comments, [
      {
        id: comment.platformPostId,
        objectId: post.platformPostId,
        pageId: fx.page.platformAccountId,
        message: 'Menu: https://example.com/menu',
      },
    ]);
    assert.equal(comment.url, `https://www.facebook.com/${comment.platformPostId}`);
  });

  it('comments on a photo post through its post id', async () => {
    const post = await fx.publisher.publish({ message: 'A photo' }, fx.page, [jpeg()], {}, context());
    await fx.publisher.comment!(post, 'first!', fx.page, {}, context());
    assert.equal(fx.fake.comments[0]!.objectId, post.platformPostId);
  });

  it('a comment on a deleted post is refused as Graph says (code 100, subcode 33)', async () => {
    const post = await fx.publisher.publish({ message: `gone ${Math.random()}` }, fx.page, [], {}, context());
    fx.fake.deletePost(post.platformPostId);
    const error = await rejection(fx.publisher.comment!(post, 'hello', fx.page, {}, context()));
    assert.equal(error.retryable, false);
    assert.match(error.message, /does not exist/);
    assert.equal(fx.fake.comments.length, 0);
  });

  it('sends each photo’s alt text as alt_text_custom, single or attached to a feed post', async () => {
    await fx.publisher.publish({ message: 'one' }, fx.page, [jpeg('A croissant')], {}, context());
    const single = [...fx.fake.photos.values()].at(-1)!;
    assert.equal(single.altTextCustom, 'A croissant');

    const post = await fx.publisher.publish(
      { message: 'two' },
      fx.page,
      [jpeg('First'), jpeg()],
      {},
      context(),
    );
    const attached = [...fx.fake.photos.values()].filter((p) => p.attachedTo === post.platformPostId);
    assert.deepEqual(
      attached.map((p) => p.altTextCustom),
      ['First', undefined],
    );
  });
});
