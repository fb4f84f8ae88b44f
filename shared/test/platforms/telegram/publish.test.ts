import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mediaFile } from './media.ts';
import { account, context, telegramFixture } from './setup.ts';

describe('Telegram publishing', () => {
  const fx = telegramFixture();

  it('sends a text post with sendMessage as plain text and links to it', async () => {
    const result = await fx.publisher.publish(
      { message: 'Hello <b>world</b>' },
      account('@news'),
      [],
      {},
      context(),
    );
    assert.equal(fx.tg.sent.length, 1);
    const sent = fx.tg.sent[0]!;
    assert.equal(sent.method, 'sendMessage');
    assert.equal(sent.chatId, -1001234567890);
    assert.equal(sent.text, 'Hello <b>world</b>');
    assert.equal(sent.parseMode, undefined);
    assert.equal(result.platformPostId, String(sent.messageIds[0]));
    assert.equal(result.url, `https://t.me/news/${sent.messageIds[0]}`);
  });

  it('passes every option through to sendMessage', async () => {
    await fx.publisher.publish(
      { message: '<i>hi</i> https://example.com' },
      account('@forum'),
      [],
      {
        disableNotification: true,
        protectContent: true,
        linkPreview: false,
        messageThreadId: 7,
        parseMode: 'HTML',
      },
      context(),
    );
    const sent = fx.tg.sent[0]!;
    assert.equal(sent.parseMode, 'HTML');
    assert.equal(sent.disableNotification, true);
    assert.equal(sent.protectContent, true);
    assert.equal(sent.messageThreadId, 7);
    assert.deepEqual(sent.linkPreviewOptions, { is_disabled: true });
  });

  it('sends MarkdownV2 and an explicit link preview', async () => {
    await fx.publisher.publish(
      { message: '*bold* \\.' },
      account('@news'),
      [],
      { parseMode: 'MarkdownV2', linkPreview: true },
      context(),
    );
    assert.equal(fx.tg.sent[0]!.parseMode, 'MarkdownV2');
    assert.deepEqual(fx.tg.sent[0]!.linkPreviewOptions, { is_disabled: false });
  });

  it('sends false options as false rather than leaving them out', async () => {
    await fx.publisher.publish(
      { message: 'x' },
      account('@news'),
      [],
      { disableNotification: false },
      context(),
    );
    assert.equal(fx.tg.sent[0]!.disableNotification, false);
    assert.equal(fx.tg.sent[0]!.protectContent, undefined);
  });

  const singles: [string, string, string][] = [
    ['a photo', 'image/jpeg', 'sendPhoto'],
    ['a PNG photo', 'image/png', 'sendPhoto'],
    ['a video', 'video/mp4', 'sendVideo'],
    ['a GIF', 'image/gif', 'sendAnimation'],
    ['a PDF', 'application/pdf', 'sendDocument'],
    ['a QuickTime video (as a file)', 'video/quicktime', 'sendDocument'],
  ];
  for (const [name, type, method] of singles) {
    it(`uploads ${name} with ${method} and the message as caption`, async () => {
      const file = mediaFile(type, { filename: 'upload.bin' });
      const result = await fx.publisher.publish(
        { message: 'Caption 😀' },
        account('@news'),
        [file],
        { parseMode: 'HTML', protectContent: true },
        context(),
      );
      const sent = fx.tg.sent[0]!;
      assert.equal(sent.method, method);
      assert.equal(sent.caption, 'Caption 😀');
      assert.equal(sent.parseMode, 'HTML');
      assert.equal(sent.protectContent, true);
      assert.equal(sent.files.length, 1);
      assert.equal(sent.files[0]!.contentType, type);
      assert.equal(sent.files[0]!.filename, 'upload.bin');
      assert.deepEqual(sent.files[0]!.bytes, file.bytes);
      assert.equal(result.url, `https://t.me/news/${sent.messageIds[0]}`);
    });
  }

  it('sends a photo without a caption when the message is empty', async () => {
    await fx.publisher.publish({ message: '' }, account('@news'), [mediaFile('image/jpeg')], {}, context());
    assert.equal(fx.tg.sent[0]!.caption, undefined);
  });

  it('sends an album of 2 with the caption on the first item only', async () => {
    const files = [mediaFile('image/jpeg'), mediaFile('video/mp4')];
    const result = await fx.publisher.publish(
      { message: 'Album' },
      account('@news'),
      files,
      { parseMode: 'HTML' },
      context(),
    );
    const sent = fx.tg.sent[0]!;
    assert.equal(sent.method, 'sendMediaGroup');
    assert.deepEqual(
      sent.media!.map((item) => [item.type, item.caption, item.parse_mode]),
      [
        ['photo', 'Album', 'HTML'],
        ['video', undefined, undefined],
      ],
    );
    assert.deepEqual(
      sent.files.map((f) => f.bytes),
      files.map((f) => f.bytes),
    );
    assert.equal(sent.messageIds.length, 2);
    assert.equal(result.platformPostId, String(sent.messageIds[0]));
    assert.equal(result.url, `https://t.me/news/${sent.messageIds[0]}`);
  });

  it('sends an album of 10 photos, each upload attached by name', async () => {
    const files = Array.from({ length: 10 }, () => mediaFile('image/png'));
    await fx.publisher.publish(
      { message: 'Ten' },
      account('@news'),
      files,
      { disableNotification: true },
      context(),
    );
    const sent = fx.tg.sent[0]!;
    assert.equal(sent.disableNotification, true);
    assert.deepEqual(
      sent.media!.map((item) => item.media),
      files.map((_, i) => `attach://file${i}`),
    );
    assert.deepEqual(
      sent.files.map((f) => f.bytes),
      files.map((f) => f.bytes),
    );
    assert.equal(sent.messageIds.length, 10);
  });

  it('sends an album of documents', async () => {
    await fx.publisher.publish(
      { message: 'Docs' },
      account('@news'),
      [mediaFile('application/pdf'), mediaFile('application/pdf')],
      {},
      context(),
    );
    assert.deepEqual(
      fx.tg.sent[0]!.media!.map((item) => item.type),
      ['document', 'document'],
    );
  });

  it('links with the @handle or the chat username, and not at all for private chats', async () => {
    const byId = await fx.publisher.publish({ message: 'x' }, account('-1009876543210'), [], {}, context());
    assert.equal(byId.url, undefined);
    const numericPublic = await fx.publisher.publish(
      { message: 'x' },
      account('-1001234567890'),
      [],
      {},
      context(),
    );
    assert.match(numericPublic.url!, /^https:\/\/t\.me\/news\/\d+$/);
    const user = await fx.publisher.publish({ message: 'x' }, account('42'), [], {}, context());
    assert.equal(user.url, undefined);
    assert.match(user.platformPostId, /^\d+$/);
  });

  it('returns ids that grow per chat', async () => {
    const first = await fx.publisher.publish({ message: 'a' }, account('@news'), [], {}, context());
    const second = await fx.publisher.publish({ message: 'b' }, account('@news'), [], {}, context());
    assert.equal(Number(second.platformPostId), Number(first.platformPostId) + 1);
  });
});
