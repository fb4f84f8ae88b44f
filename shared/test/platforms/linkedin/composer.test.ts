import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { sampleJpeg, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';
import { context, linkedInFixture } from './setup.ts';

describe('LinkedIn first comment and alt text', () => {
  const fx = linkedInFixture();
  const jpeg = (altText?: string) => ({
    ...memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'a.jpg', contentType: 'image/jpeg' }),
    ...(altText === undefined ? {} : { altText }),
  });
  const png = (altText?: string) => ({
    ...memoryMedia(new Uint8Array(samplePng()), { filename: 'b.png', contentType: 'image/png' }),
    ...(altText === undefined ? {} : { altText }),
  });

  beforeEach(() => {
    fx.fake.comments.length = 0;
  });

  it('posts the first comment through socialActions/{urn}/comments with the versioned headers', async () => {
    const options = fx.publisher.optionsSchema.parse({ firstComment: 'Slides: https://example.com (#1)' });
    const post = await fx.publisher.publish(
      { message: `Talk ${Math.random()}` },
      fx.member,
      [],
      options,
      context(),
    );
    const comment = await fx.publisher.comment!(post, options.firstComment!, fx.member, options, context());
    const [stored] = fx.fake.comments;
    assert.equal(stored!.object, post.platformPostId);
    assert.equal(stored!.actor, fx.fake.memberUrn);
    // Comment text is plain: no little-text escaping.
    assert.equal(stored!.text, 'Slides: https://example.com (#1)');
    assert.equal(comment.platformPostId, stored!.urn);
    assert.equal(
      comment.url,
      `https://www.linkedin.com/feed/update/${post.platformPostId}/?commentUrn=${encodeURIComponent(stored!.urn)}`,
    );
    const request = fx.fake.server.requests.findLast((r) => r.path.includes('/socialActions/'))!;
    assert.equal(request.path, `/rest/socialActions/${encodeURIComponent(post.platformPostId)}/comments`);
    assert.ok(request.headers['linkedin-version']);
    assert.equal(request.headers['x-restli-protocol-version'], '2.0.0');
  });

  it('a comment on a deleted post is LinkedIn’s 404: target_unreachable, not retried', async () => {
    const post = await fx.publisher.publish(
      { message: `gone ${Math.random()}` },
      fx.member,
      [],
      {},
      context(),
    );
    fx.fake.deletePost(post.platformPostId);
    const error = await rejection(fx.publisher.comment!(post, 'hello', fx.member, {}, context()));
    assert.equal(error.code, 'target_unreachable');
    assert.equal(error.status, 404);
    assert.equal(error.retryable, false);
    assert.equal(fx.fake.comments.length, 0);
  });

  it('the options refuse a first comment over 1250 characters', () => {
    assert.throws(() => fx.publisher.optionsSchema.parse({ firstComment: 'a'.repeat(1251) }));
  });

  it('puts each image’s altText into the post content, single and multi-image', async () => {
    const single = await fx.publisher.publish(
      { message: `one ${Math.random()}` },
      fx.member,
      [jpeg('A chart')],
      {},
      context(),
    );
    const stored = (urn: string) => fx.fake.posts.find((p) => p.urn === urn)!;
    assert.deepEqual(stored(single.platformPostId).content?.media?.altText, 'A chart');

    const multi = await fx.publisher.publish(
      { message: `two ${Math.random()}` },
      fx.member,
      [jpeg('First'), png()],
      {},
      context(),
    );
    assert.deepEqual(
      stored(multi.platformPostId).content?.multiImage?.images.map((i) => i.altText),
      ['First', undefined],
    );
  });

  it('LinkedIn refuses alt text over 4086 characters: content_rejected, nothing posted', async () => {
    const before = fx.fake.posts.length;
    const error = await rejection(
      fx.publisher.publish(
        { message: `long ${Math.random()}` },
        fx.member,
        [jpeg('x'.repeat(4087))],
        {},
        context(),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /altText/);
    assert.equal(fx.fake.posts.length, before);
  });
});
