import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublishResult } from '../../../src/platforms/types.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import { account, context, mastodonFixture, rejection } from './setup.ts';

const fx = mastodonFixture();

const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });
const png = (altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: 'dot.png', contentType: 'image/png' }),
  ...(altText === undefined ? {} : { altText }),
});

describe('Mastodon threads and first comments (replies)', () => {
  it('publishes each part with in_reply_to_id set to the part before it', async () => {
    const root = await fx.publisher.publish({ message: 'part 1' }, account(fx.fake), [], {}, context());
    const second = await fx.publisher.publish(
      { message: 'part 2' },
      account(fx.fake),
      [],
      {},
      { ...context(), ...replyTo(root) },
    );
    await fx.publisher.publish(
      { message: 'part 3' },
      account(fx.fake),
      [],
      {},
      { ...context(), ...replyTo(second, root) },
    );
    assert.deepEqual(
      fx.fake.statuses.map((s) => [s.text, s.inReplyToId]),
      [
        ['part 1', null],
        ['part 2', root.platformPostId],
        ['part 3', second.platformPostId],
      ],
    );
  });

  it('a resent reply part with the same Idempotency-Key gets the first status back, not a second one', async () => {
    const root = await fx.publisher.publish({ message: 'root' }, account(fx.fake), [], {}, context());
    const part = { ...context('thread-part-1:masto-1'), ...replyTo(root) };
    const first = await fx.publisher.publish({ message: 'reply' }, account(fx.fake), [], {}, part);
    const again = await fx.publisher.publish(
      { message: 'reply' },
      account(fx.fake),
      [],
      {},
      { ...part, signal: AbortSignal.timeout(10_000), resumed: { since: new Date() } },
    );
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.statuses.length, 2);
  });

  it('a reply to a deleted post is refused with Mastodon’s 404: content_rejected, not retried', async () => {
    const root = await fx.publisher.publish({ message: 'soon gone' }, account(fx.fake), [], {}, context());
    fx.fake.deleteStatus(root.platformPostId);
    const error = await rejection(
      fx.publisher.publish(
        { message: 'orphan' },
        account(fx.fake),
        [],
        {},
        { ...context(), ...replyTo(root) },
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.equal(error.status, 404);
    assert.match(error.message, /does not appear to exist/);
    assert.equal(fx.fake.statuses.length, 1);
  });

  it('accepts firstComment as an option (the posting service sends it as a reply)', async () => {
    const options = fx.publisher.optionsSchema.parse({ firstComment: 'Sources below' });
    assert.equal(options.firstComment, 'Sources below');
    assert.throws(() => fx.publisher.optionsSchema.parse({ firstComment: '   ' }));
  });
});

describe('Mastodon alt text', () => {
  it('uploads each file with its altText as the media description, ahead of the altTexts option', async () => {
    await fx.publisher.publish(
      { message: 'pictures' },
      account(fx.fake),
      [png('A red dot on white'), png()],
      { altTexts: ['ignored', 'From the option'] },
      context(),
    );
    const attached = fx.fake.statuses[0]!.mediaIds.map((id) => fx.fake.media.get(id)!.description);
    assert.deepEqual(attached, ['A red dot on white', 'From the option']);
  });

  it('validation checks alt text against this server’s description_limit', async () => {
    const ok = await fx.publisher.validate({ message: 'x' }, account(fx.fake), [png('x'.repeat(1500))], {});
    assert.deepEqual(ok.errors, []);
    const long = await fx.publisher.validate({ message: 'x' }, account(fx.fake), [png('x'.repeat(1501))], {});
    assert.deepEqual(
      long.errors.map((e) => [e.code, e.path]),
      [['alt_text_too_long', 'media.0.altText']],
    );
  });

  it('the server refuses a description over its limit: media_rejected, nothing posted', async () => {
    const error = await rejection(
      fx.publisher.publish({ message: 'too long' }, account(fx.fake), [png('x'.repeat(1501))], {}, context()),
    );
    assert.equal(error.code, 'media_rejected');
    assert.match(error.message, /Description is too long/);
    assert.equal(fx.fake.statuses.length, 0);
  });
});
