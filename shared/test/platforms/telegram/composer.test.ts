import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TelegramPublisher } from '../../../src/platforms/telegram/publisher.ts';
import type { PublishResult } from '../../../src/platforms/types.ts';
import type { FakeTelegram } from '../../fakes/telegram.ts';
import { rejection } from '../../support/platform-testing.ts';
import { mediaFile } from './media.ts';
import { account, context, startTelegram } from './setup.ts';

const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });

describe('Telegram threads (replies)', () => {
  let tg: FakeTelegram;
  let publisher: TelegramPublisher;
  before(async () => {
    tg = await startTelegram();
    publisher = new TelegramPublisher({ apiUrl: tg.url });
  });
  beforeEach(() => {
    tg.sent.length = 0;
  });
  after(() => tg.close());

  it('sends each part as a reply (reply_parameters) to the part before it', async () => {
    const root = await publisher.publish({ message: 'part 1' }, account('@news'), [], {}, context());
    const second = await publisher.publish(
      { message: 'part 2' },
      account('@news'),
      [],
      {},
      { ...context(), ...replyTo(root) },
    );
    await publisher.publish(
      { message: 'part 3' },
      account('@news'),
      [mediaFile('image/png')],
      {},
      { ...context(), ...replyTo(second, root) },
    );
    assert.deepEqual(
      tg.sent.map((s) => [s.method, s.replyToMessageId]),
      [
        ['sendMessage', undefined],
        ['sendMessage', Number(root.platformPostId)],
        ['sendPhoto', Number(second.platformPostId)],
      ],
    );
  });

  it('an album part replies with its first message; the next part replies to that one', async () => {
    const root = await publisher.publish({ message: 'root' }, account('@news'), [], {}, context());
    const album = await publisher.publish(
      { message: 'album' },
      account('@news'),
      [mediaFile('image/png'), mediaFile('image/jpeg')],
      {},
      { ...context(), ...replyTo(root) },
    );
    assert.equal(tg.sent[1]!.method, 'sendMediaGroup');
    assert.equal(tg.sent[1]!.replyToMessageId, Number(root.platformPostId));
    assert.equal(album.platformPostId, String(tg.sent[1]!.messageIds[0]));
  });

  it('a reply to a deleted message is refused as Telegram says: content_rejected, nothing sent', async () => {
    const root = await publisher.publish({ message: 'soon gone' }, account('@news'), [], {}, context());
    tg.deleteMessage(-1001234567890, Number(root.platformPostId));
    const error = await rejection(
      publisher.publish({ message: 'orphan' }, account('@news'), [], {}, { ...context(), ...replyTo(root) }),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /message to be replied not found/);
    assert.equal(tg.sent.length, 1);
  });
});
