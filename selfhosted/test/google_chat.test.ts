import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeGoogleChat, startFakeGoogleChat } from '@postwave/shared/testing';
import { publishNow, uploadPng, validation } from './chat-helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

/** Google Chat through the self-hosted server: text as written, images in a card, one thread per threadKey. */
describe('self-hosted: Google Chat', () => {
  let chat: FakeGoogleChat;
  let server: TestServer;
  before(async () => {
    chat = await startFakeGoogleChat();
    server = await startTestServer({
      accounts: [
        {
          id: 'chat-eng',
          platform: 'google_chat',
          platformAccountId: chat.webhook.space,
          credentials: { webhookUrl: chat.webhookUrl() },
          options: { threadKey: 'releases' },
        },
      ],
    });
  });
  after(async () => {
    await server?.close();
    await chat?.close();
  });

  it('validates 32,000 bytes of UTF-8 and warns that loopback media URLs are not public', async () => {
    assert.equal(
      (await validation(server, { message: 'é'.repeat(16_000), accountIds: ['chat-eng'] })).valid,
      true,
    );
    assert.deepEqual(
      (await validation(server, { message: 'é'.repeat(16_001), accountIds: ['chat-eng'] })).errors,
      ['text_too_long'],
    );
    const media = [await uploadPng(server)];
    const withImage = await validation(server, { message: 'x', accountIds: ['chat-eng'], media });
    assert.deepEqual(withImage.warnings, ['media_url_not_public']);
  });

  it('posts text and an image card into the threadKey thread; a thread follows in the same thread', async () => {
    const media = [await uploadPng(server)];
    const first = await publishNow(server, { message: '*v2.1* is out', accountIds: ['chat-eng'], media });
    assert.equal(first.status, 200, first.raw);
    const posted = chat.messages[0]!;
    assert.equal(posted.text, '*v2.1* is out');
    assert.equal(first.results[0]!.platformPostId, posted.name);
    const cards = posted.cardsV2 as {
      card: { sections: { widgets: { image: { imageUrl: string } }[] }[] };
    }[];
    assert.match(cards[0]!.card.sections[0]!.widgets[0]!.image.imageUrl, /\/media\//);

    const second = await publishNow(server, {
      message: 'Notes',
      accountIds: ['chat-eng'],
      thread: [{ message: 'Details' }],
    });
    assert.equal(second.status, 200, second.raw);
    assert.deepEqual(
      chat.messages.map((m) => m.thread === posted.thread),
      [true, true, true],
    );
    assert.ok(!second.raw.includes(chat.webhook.token));
  });
});
