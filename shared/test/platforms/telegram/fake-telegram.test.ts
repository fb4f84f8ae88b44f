import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeTelegram } from '../../fakes/telegram.ts';
import { sampleBytes } from './media.ts';
import { botToken, startTelegram } from './setup.ts';

/** The fake itself, spoken to the way other Bot API clients speak to Telegram. */
describe('fake Telegram Bot API', () => {
  let tg: FakeTelegram;
  const call = async (method: string, init: RequestInit = {}, token = botToken) => {
    const response = await fetch(`${tg.url}/bot${token}/${method}`, { method: 'POST', ...init });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const json = (body: unknown): RequestInit => ({
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const album = (items: Record<string, unknown>[], parts: string[], chat = '@news') => {
    const form = new FormData();
    form.append('chat_id', chat);
    form.append('media', JSON.stringify(items));
    for (const part of parts)
      form.append(part, new Blob([new Uint8Array(sampleBytes('image/jpeg'))]), `${part}.jpg`);
    return { body: form };
  };
  const photo = (i: number) => ({ type: 'photo', media: `attach://f${i}` });

  before(async () => {
    tg = await startTelegram();
  });
  after(() => tg.close());

  it('answers getMe with the bot', async () => {
    const { body } = await call('getMe');
    assert.equal(body.ok, true);
    assert.deepEqual(
      { ...(body.result as object) },
      {
        id: 123456,
        is_bot: true,
        first_name: 'Postwave',
        username: 'postwave_bot',
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      },
    );
  });

  it('accepts urlencoded bodies and query parameters', async () => {
    const form = await call('sendMessage', {
      body: new URLSearchParams({ chat_id: '@news', text: 'form' }),
    });
    assert.equal(form.status, 200);
    const query = await fetch(`${tg.url}/bot${botToken}/sendMessage?chat_id=%40news&text=query`);
    assert.equal(query.status, 200);
    assert.deepEqual(
      tg.sent.slice(-2).map((s) => s.text),
      ['form', 'query'],
    );
  });

  const errors: [string, () => ReturnType<typeof call>, number, string][] = [
    ['a malformed token', () => call('getMe', {}, 'nonsense'), 404, 'Not Found'],
    ['an unknown token', () => call('getMe', {}, '1:unknown'), 401, 'Unauthorized'],
    ['an unknown method', () => call('sendSticker', json({ chat_id: '@news' })), 404, 'Not Found'],
    ['no chat_id', () => call('sendMessage', json({ text: 'x' })), 400, 'Bad Request: chat_id is empty'],
    [
      'no text',
      () => call('sendMessage', json({ chat_id: '@news' })),
      400,
      'Bad Request: message text is empty',
    ],
    [
      'no photo',
      () => call('sendPhoto', json({ chat_id: '@news' })),
      400,
      'Bad Request: there is no photo in the request',
    ],
    [
      'a photo by unknown id',
      () => call('sendPhoto', json({ chat_id: '@news', photo: 'abc' })),
      400,
      'Bad Request: wrong file identifier/HTTP URL specified',
    ],
    [
      'an unknown parse mode',
      () => call('sendMessage', json({ chat_id: '@news', text: 'x', parse_mode: 'BB' })),
      400,
      'Bad Request: unsupported parse_mode',
    ],
    [
      'one album item',
      () => call('sendMediaGroup', album([photo(0)], ['f0'])),
      400,
      'Bad Request: media group must contain at least 2 items',
    ],
    [
      'eleven album items',
      () =>
        call(
          'sendMediaGroup',
          album(
            Array.from({ length: 11 }, (_, i) => photo(i)),
            Array.from({ length: 11 }, (_, i) => `f${i}`),
          ),
        ),
      400,
      'Bad Request: too many messages to send as an album',
    ],
    [
      'a document with a photo',
      () =>
        call('sendMediaGroup', album([photo(0), { type: 'document', media: 'attach://f1' }], ['f0', 'f1'])),
      400,
      "Bad Request: document can't be mixed with other media types",
    ],
    [
      'an attach:// without its part',
      () => call('sendMediaGroup', album([photo(0), photo(1)], ['f0'])),
      400,
      'Bad Request: wrong file identifier/HTTP URL specified',
    ],
    [
      'an album caption of 1025',
      () =>
        call('sendMediaGroup', album([{ ...photo(0), caption: 'x'.repeat(1025) }, photo(1)], ['f0', 'f1'])),
      400,
      'Bad Request: MEDIA_CAPTION_TOO_LONG',
    ],
    [
      'a chat whose user blocked the bot',
      () => call('sendMessage', json({ chat_id: 43, text: 'x' })),
      403,
      'Forbidden: bot was blocked by the user',
    ],
  ];
  for (const [name, run, status, description] of errors) {
    it(`answers ${name} with ${status} "${description}"`, async () => {
      const sentBefore = tg.sent.length;
      const response = await run();
      assert.equal(response.status, status);
      assert.deepEqual(response.body, { ok: false, error_code: status, description });
      assert.equal(tg.sent.length, sentBefore, 'nothing was recorded as sent');
    });
  }

  it('answers an album with one message per item sharing a media_group_id', async () => {
    const { body } = await call(
      'sendMediaGroup',
      album([{ ...photo(0), caption: 'hi' }, photo(1)], ['f0', 'f1']),
    );
    const messages = body.result as {
      message_id: number;
      media_group_id: string;
      caption?: string;
      photo: unknown[];
    }[];
    assert.equal(messages.length, 2);
    assert.equal(messages[0]!.media_group_id, messages[1]!.media_group_id);
    assert.equal(messages[0]!.caption, 'hi');
    assert.equal(messages[1]!.caption, undefined);
    assert.equal(messages[1]!.message_id, messages[0]!.message_id + 1);
    assert.ok(Array.isArray(messages[0]!.photo));
  });

  it('injects failures for one method only', async () => {
    tg.injectRateLimit(7, { method: 'sendPhoto' });
    assert.equal((await call('sendMessage', json({ chat_id: '@news', text: 'x' }))).status, 200);
    const limited = await call('sendPhoto', json({ chat_id: '@news' }));
    assert.deepEqual(limited.body, {
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      parameters: { retry_after: 7 },
    });
  });
});
