import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PublishResult } from '../../../src/platforms/types.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeX, startFakeX } from '../../fakes/x.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { media, publishContext, xAccount, xPublisher } from './setup.ts';

let fake: FakeX;
let publisher: ReturnType<typeof xPublisher>;

before(async () => {
  fake = await startFakeX({ processingPolls: 1 });
  publisher = xPublisher(fake);
});
after(() => fake.close());
beforeEach(() => {
  fake.server.clearInjected();
  fake.server.requests.length = 0;
});

const unique = (text: string) => `${text} ${Math.random().toString(36).slice(2)}`;
const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });
const post = (result: PublishResult) => fake.posts.find((p) => p.id === result.platformPostId)!;

describe('X threads and first comments (replies)', () => {
  it('publishes each part with reply.in_reply_to_tweet_id set to the part before it', async () => {
    const root = await publisher.publish(
      { message: unique('1/3') },
      xAccount(fake),
      [],
      {},
      publishContext(),
    );
    const second = await publisher.publish(
      { message: unique('2/3') },
      xAccount(fake),
      [],
      {},
      publishContext(replyTo(root)),
    );
    const third = await publisher.publish(
      { message: unique('3/3') },
      xAccount(fake),
      [media.png()],
      {},
      publishContext(replyTo(second, root)),
    );
    assert.equal(post(root).replyTo, undefined);
    assert.equal(post(second).replyTo, root.platformPostId);
    assert.equal(post(third).replyTo, second.platformPostId);
    assert.equal(post(third).mediaIds.length, 1);
    const body = fake.requestsTo('POST', /^\/2\/tweets$/)[1]!.body as { reply: unknown };
    assert.deepEqual(body.reply, { in_reply_to_tweet_id: root.platformPostId });
  });

  it('a reply to a deleted post is refused with X’s 403: content_rejected, not retried', async () => {
    const root = await publisher.publish(
      { message: unique('gone') },
      xAccount(fake),
      [],
      {},
      publishContext(),
    );
    fake.deletePost(root.platformPostId);
    const before = fake.posts.length;
    const error = await rejection(
      publisher.publish({ message: unique('orphan') }, xAccount(fake), [], {}, publishContext(replyTo(root))),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /deleted or not visible/);
    assert.equal(fake.posts.length, before);
  });

  it('a reply part whose answer was lost is found among the latest posts on retry, never posted twice', async () => {
    const root = await publisher.publish(
      { message: unique('root') },
      xAccount(fake),
      [],
      {},
      publishContext(),
    );
    fake.loseNextPostAnswer();
    const text = unique('reply, answer lost');
    const context = publishContext(replyTo(root));
    const before = fake.posts.length;
    const result = await withRetry(
      () => publisher.publish({ message: text }, xAccount(fake), [], {}, context),
      fastRetries(),
    );
    assert.equal(fake.posts.length, before + 1);
    assert.equal(result.platformPostId, fake.posts.at(-1)!.id);
    assert.equal(fake.posts.at(-1)!.replyTo, root.platformPostId);
  });

  it('accepts firstComment as an option (the posting service sends it as a reply)', async () => {
    const options = publisher.optionsSchema.parse({ firstComment: 'Link in reply: https://example.com' });
    const outcome = await publisher.validate({ message: 'hi' }, xAccount(fake), [], options);
    assert.deepEqual(outcome.errors, []);
  });
});

describe('X alt text', () => {
  it('sets each image’s and GIF’s alt text through POST /2/media/metadata before posting', async () => {
    const files = [{ ...media.png(), altText: 'A red dot' }, media.jpeg()];
    const result = await publisher.publish(
      { message: unique('alt') },
      xAccount(fake),
      files,
      {},
      publishContext(),
    );
    const ids = post(result).mediaIds;
    assert.deepEqual(
      ids.map((id) => fake.media.get(id)!.altText),
      ['A red dot', undefined],
    );
    const calls = fake.requestsTo('POST', /^\/2\/media\/metadata$/);
    assert.deepEqual(calls[0]!.body, { id: ids[0], metadata: { alt_text: { text: 'A red dot' } } });
    assert.equal(calls.length, 1);

    const gif = await publisher.publish(
      { message: unique('gif') },
      xAccount(fake),
      [{ ...media.gif(), altText: 'A looping spinner' }],
      {},
      publishContext(),
    );
    assert.equal(fake.media.get(post(gif).mediaIds[0]!)!.altText, 'A looping spinner');
  });

  it('does not send a video’s alt text, and validation says so', async () => {
    const video = { ...media.mp4(), altText: 'Waves' };
    const outcome = await publisher.validate({ message: 'clip' }, xAccount(fake), [video], {});
    assert.deepEqual(
      outcome.warnings.map((w) => [w.code, w.path]),
      [['alt_text_unsupported', 'media[0].altText']],
    );
    await publisher.publish({ message: unique('clip') }, xAccount(fake), [video], {}, publishContext());
    assert.equal(fake.requestsTo('POST', /^\/2\/media\/metadata$/).length, 0);
  });

  it('X refuses alt text over 1000 characters: content_rejected, nothing posted', async () => {
    const before = fake.posts.length;
    const error = await rejection(
      publisher.publish(
        { message: unique('long alt') },
        xAccount(fake),
        [{ ...media.png(), altText: 'x'.repeat(1001) }],
        {},
        publishContext(),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /alt text/);
    assert.equal(fake.posts.length, before);
  });
});
