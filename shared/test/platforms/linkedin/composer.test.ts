import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { linkedInModule } from '../../../src/platforms/linkedin/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeLinkedIn, startFakeLinkedIn } from '../../fakes/linkedin.ts';
import { sampleJpeg, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const context = (): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:li1`,
  logger: silentLogger,
});

describe('LinkedIn first comment and alt text', () => {
  let fake: FakeLinkedIn;
  let publisher: ReturnType<typeof linkedInModule.create>;
  let member: PlatformAccount;
  const jpeg = (altText?: string) => ({
    ...memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'a.jpg', contentType: 'image/jpeg' }),
    ...(altText === undefined ? {} : { altText }),
  });
  const png = (altText?: string) => ({
    ...memoryMedia(new Uint8Array(samplePng()), { filename: 'b.png', contentType: 'image/png' }),
    ...(altText === undefined ? {} : { altText }),
  });

  before(async () => {
    fake = await startFakeLinkedIn();
    publisher = linkedInModule.create(fake.env());
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.server.clearInjected();
    fake.comments.length = 0;
    member = {
      id: 'li1',
      platform: 'linkedin',
      platformAccountId: fake.memberUrn,
      credentials: fake.credentials(),
    };
  });

  it('posts the first comment through socialActions/{urn}/comments with the versioned headers', async () => {
    const options = publisher.optionsSchema.parse({ firstComment: 'Slides: https://example.com (#1)' });
    const post = await publisher.publish(
      { message: `Talk ${Math.random()}` },
      member,
      [],
      options,
      context(),
    );
    const comment = await publisher.comment!(post, options.firstComment!, member, options, context());
    const [stored] = fake.comments;
    assert.equal(stored!.object, post.platformPostId);
    assert.equal(stored!.actor, fake.memberUrn);
    // Comment text is plain: no little-text escaping.
    assert.equal(stored!.text, 'Slides: https://example.com (#1)');
    assert.equal(comment.platformPostId, stored!.urn);
    assert.equal(
      comment.url,
      `https://www.linkedin.com/feed/update/${post.platformPostId}/?commentUrn=${encodeURIComponent(stored!.urn)}`,
    );
    const request = fake.server.requests.findLast((r) => r.path.includes('/socialActions/'))!;
    assert.equal(request.path, `/rest/socialActions/${encodeURIComponent(post.platformPostId)}/comments`);
    assert.ok(request.headers['linkedin-version']);
    assert.equal(request.headers['x-restli-protocol-version'], '2.0.0');
  });

  it('a comment on a deleted post is LinkedIn’s 404: target_unreachable, not retried', async () => {
    const post = await publisher.publish({ message: `gone ${Math.random()}` }, member, [], {}, context());
    fake.deletePost(post.platformPostId);
    const error = await rejection(publisher.comment!(post, 'hello', member, {}, context()));
    assert.equal(error.code, 'target_unreachable');
    assert.equal(error.status, 404);
    assert.equal(error.retryable, false);
    assert.equal(fake.comments.length, 0);
  });

  it('the options refuse a first comment over 1250 characters', () => {
    assert.throws(() => publisher.optionsSchema.parse({ firstComment: 'a'.repeat(1251) }));
  });

  it('puts each image’s altText into the post content, single and multi-image', async () => {
    const single = await publisher.publish(
      { message: `one ${Math.random()}` },
      member,
      [jpeg('A chart')],
      {},
      context(),
    );
    const stored = (urn: string) => fake.posts.find((p) => p.urn === urn)!;
    assert.deepEqual(stored(single.platformPostId).content?.media?.altText, 'A chart');

    const multi = await publisher.publish(
      { message: `two ${Math.random()}` },
      member,
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
    const before = fake.posts.length;
    const error = await rejection(
      publisher.publish(
        { message: `long ${Math.random()}` },
        member,
        [jpeg('x'.repeat(4087))],
        {},
        context(),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /altText/);
    assert.equal(fake.posts.length, before);
  });
});
