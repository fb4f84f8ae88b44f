import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublishResult } from '../../../src/platforms/types.ts';
import { rejection } from '../../support/platform-testing.ts';
import { mediaFile } from './media.ts';
import { account, context, telegramFixture } from './setup.ts';

const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });

describe('Telegram threads (replies)', () => {
  const fx = telegramFixture();

  it('sends each part as a reply (reply_parameters) to the part before it', async () => {
    const root = await fx.publisher.publish({ message: 'part 1' }, account('@news'), [], {}, context());
    const second = await fx.publisher.publish(
      { message: 'part 2' },
      account('@news'),
      [],
      {},
      { ...context(), ...replyTo(root) },
    );
    await fx.publisher.publish(
      { message: 'part 3' },
      account('@news'),
      [mediaFile('image/png')],
      {},
      { ...context(), ...replyTo(second, root) },
    );
    assert.deepEqual(
      fx.tg.sent.map((s) => [s.method, s.replyToMessageId]),
      [
        ['sendMessage', undefined],
        ['sendMessage', Number(root.platformPostId)],
        ['sendPhoto', Number(second.platformPostId)],
      ],
    );
  });

  it('an album part replies with its first message; the next part replies to that one', async () => {
    const root = await fx.publisher.publish({ message: 'root' }, account('@news'), [], {}, context());
    const album = await fx.publisher.publish(
      { message: 'album' },
      account('@news'),
      [mediaFile('image/png'), mediaFile('image/jpeg')],
      {},
      { ...context(), ...replyTo(root) },
    );
    assert.equal(fx.tg.sent[1]!.method, 'sendMediaGroup');
    assert.equal(fx.tg.sent[1]!.replyToMessageId, Number(root.platformPostId));
    assert.equal(album.platformPostId, String(fx.tg.sent[1]!.messageIds[0]));
  });

  it('a reply to a deleted message is refused as Telegram says: content_rejected, nothing sent', async () => {
    const root = await fx.publisher.publish({ message: 'soon gone' }, account('@news'), [], {}, context());
    fx.tg.deleteMessage(-1001234567890, Number(root.platformPostId));
    const error = await rejection(
      fx.publisher.publish(
        { message: 'orphan' },
        account('@news'),
        [],
        {},
        { ...context(), ...replyTo(root) },
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /message to be replied not found/);
    assert.equal(fx.tg.sent.length, 1);
  });
});
