import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { facebookModule } from '../../../src/platforms/facebook/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeFacebook, startFakeFacebook } from '../../fakes/facebook.ts';
import { sampleJpeg } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { MediaHost } from '../media-host.ts';

const context = (): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:fb1`,
  logger: silentLogger,
});

describe('Facebook first comment and alt text', () => {
  let fake: FakeFacebook;
  let host: MediaHost;
  let publisher: ReturnType<typeof facebookModule.create>;
  let page: PlatformAccount;
  const jpeg = (altText?: string) => ({
    ...host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg'),
    ...(altText === undefined ? {} : { altText }),
  });

  before(async () => {
    fake = await startFakeFacebook();
    host = await new MediaHost().start();
    publisher = facebookModule.create(fake.env());
  });
  after(async () => {
    await fake.close();
    await host.close();
  });
  beforeEach(() => {
    fake.server.clearInjected();
    fake.comments.length = 0;
    page = {
      id: 'fb1',
      platform: 'facebook',
      platformAccountId: fake.pages[0]!.id,
      credentials: { pageAccessToken: fake.pageToken() },
    };
  });

  it('posts the first comment as the page with POST /{post-id}/comments', async () => {
    const options = publisher.optionsSchema.parse({ firstComment: 'Menu: https://example.com/menu' });
    const post = await publisher.publish(
      { message: `Open today ${Math.random()}` },
      page,
      [],
      options,
      context(),
    );
    const comment = await publisher.comment!(post, options.firstComment!, page, options, context());
    assert.deepEqual(fake.comments, [
      {
        id: comment.platformPostId,
        objectId: post.platformPostId,
        pageId: page.platformAccountId,
        message: 'Menu: https://example.com/menu',
      },
    ]);
    assert.equal(comment.url, `https://www.facebook.com/${comment.platformPostId}`);
  });

  it('comments on a photo post through its post id', async () => {
    const post = await publisher.publish({ message: 'A photo' }, page, [jpeg()], {}, context());
    await publisher.comment!(post, 'first!', page, {}, context());
    assert.equal(fake.comments[0]!.objectId, post.platformPostId);
  });

  it('a comment on a deleted post is refused as Graph says (code 100, subcode 33)', async () => {
    const post = await publisher.publish({ message: `gone ${Math.random()}` }, page, [], {}, context());
    fake.deletePost(post.platformPostId);
    const error = await rejection(publisher.comment!(post, 'hello', page, {}, context()));
    assert.equal(error.retryable, false);
    assert.match(error.message, /does not exist/);
    assert.equal(fake.comments.length, 0);
  });

  it('sends each photo’s alt text as alt_text_custom, single or attached to a feed post', async () => {
    await publisher.publish({ message: 'one' }, page, [jpeg('A croissant')], {}, context());
    const single = [...fake.photos.values()].at(-1)!;
    assert.equal(single.altTextCustom, 'A croissant');

    const post = await publisher.publish({ message: 'two' }, page, [jpeg('First'), jpeg()], {}, context());
    const attached = [...fake.photos.values()].filter((p) => p.attachedTo === post.platformPostId);
    assert.deepEqual(
      attached.map((p) => p.altTextCustom),
      ['First', undefined],
    );
  });
});
