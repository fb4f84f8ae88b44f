import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { PlatformError } from '../../../src/errors.ts';
import { TelegramPublisher } from '../../../src/platforms/telegram/publisher.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import type { FakeTelegram } from '../../fakes/telegram.ts';
import { mediaFile } from './media.ts';
import { account, botToken, context, otherToken, startTelegram } from './setup.ts';

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, `expected a PlatformError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

function assertNoToken(error: PlatformError, token = botToken): void {
  const shown = `${error.message} ${JSON.stringify(error)} ${String(error.stack)} ${String((error.cause as Error | undefined)?.message)}`;
  assert.ok(!shown.includes(token), `the bot token leaked: ${shown}`);
  assert.ok(!shown.includes(token.split(':')[1]!), 'the secret half of the bot token leaked');
}

describe('Telegram error mapping', () => {
  let tg: FakeTelegram;
  let publisher: TelegramPublisher;
  before(async () => {
    tg = await startTelegram({ maxPhotoBytes: 2000, maxFileBytes: 4000 });
    publisher = new TelegramPublisher({ apiUrl: tg.url, requestTimeoutMs: 2_000 });
  });
  beforeEach(() => tg.clearInjected());
  after(() => tg.close());

  const post = (
    target: PlatformAccount,
    message = 'hello',
    media = [] as ReturnType<typeof mediaFile>[],
    options = {},
  ) => failure(publisher.publish({ message }, target, media, options, context()));

  const cases: [string, () => Promise<PlatformError>, string, boolean, RegExp][] = [
    [
      'an unknown bot token (401)',
      () => post(account('@news', { credentials: { botToken: otherToken } })),
      'credentials_invalid',
      false,
      /bot token/,
    ],
    [
      'a chat that does not exist (400)',
      () => post(account('@nope')),
      'target_unreachable',
      false,
      /cannot find chat "@nope"/,
    ],
    [
      'a channel the bot was kicked from (403)',
      () => post(account('@gone')),
      'target_unreachable',
      false,
      /kicked/,
    ],
    [
      'a channel the bot left (403)',
      () => post(account('@left')),
      'target_unreachable',
      false,
      /not a member/,
    ],
    [
      'a channel where the bot is not an admin (400)',
      () => post(account('@readonly')),
      'target_unreachable',
      false,
      /administrator rights/,
    ],
    [
      'a text Telegram finds too long',
      () => post(account('@news'), 'a'.repeat(4097)),
      'content_rejected',
      false,
      /message is too long/,
    ],
    [
      'broken HTML',
      () => post(account('@news'), '<b>bold', [], { parseMode: 'HTML' }),
      'content_rejected',
      false,
      /can't parse entities/,
    ],
    [
      'an unescaped MarkdownV2 character',
      () => post(account('@news'), 'Hi.', [], { parseMode: 'MarkdownV2' }),
      'content_rejected',
      false,
      /reserved/,
    ],
    [
      'a thread that does not exist',
      () => post(account('@forum'), 'x', [], { messageThreadId: 99 }),
      'content_rejected',
      false,
      /thread not found/,
    ],
    [
      'a photo that is not an image',
      () => post(account('@news'), '', [{ ...mediaFile('application/pdf'), contentType: 'image/jpeg' }]),
      'media_rejected',
      false,
      /IMAGE_PROCESS_FAILED/,
    ],
    [
      "a photo over Telegram's limit",
      () => post(account('@news'), '', [mediaFile('image/jpeg', { size: 2001 })]),
      'media_rejected',
      false,
      /too big/,
    ],
    [
      "a file over Telegram's limit (413)",
      () => post(account('@news'), '', [mediaFile('video/mp4', { size: 4001 })]),
      'media_rejected',
      false,
      /Too Large/,
    ],
  ];
  for (const [name, run, code, retryable, message] of cases) {
    it(`${name} → ${code}`, async () => {
      const before = tg.requests.length;
      const error = await run();
      assert.equal(error.code, code);
      assert.equal(error.retryable, retryable);
      assert.match(error.message, message);
      assertNoToken(error, code === 'credentials_invalid' ? otherToken : botToken);
      assert.equal(tg.requests.length, before + 1);
    });
  }

  it('a token Telegram cannot parse (404) → credentials_invalid', async () => {
    const target = account('@news', { credentials: { botToken: '1:x' } });
    tg.inject({ status: 404, json: { ok: false, error_code: 404, description: 'Not Found' } });
    const error = await post(target);
    assert.equal(error.code, 'credentials_invalid');
  });

  it('credentials that are not a token fail before any request', async () => {
    const before = tg.requests.length;
    const error = await post(account('@news', { credentials: { botToken: 'not a token' } }));
    assert.equal(error.code, 'credentials_invalid');
    assert.doesNotMatch(error.message, /not a token/);
    assert.equal(tg.requests.length, before);
  });

  it('a group upgraded to a supergroup names the new chat id', async () => {
    tg.inject({
      status: 400,
      json: {
        ok: false,
        error_code: 400,
        description: 'Bad Request: group chat was upgraded to a supergroup chat',
        parameters: { migrate_to_chat_id: -100777 },
      },
    });
    const error = await post(account('-1009876543210'));
    assert.equal(error.code, 'target_unreachable');
    assert.match(error.message, /-100777/);
  });

  it('429 → rate_limited with retry_after in milliseconds', async () => {
    tg.injectRateLimit(3);
    const error = await post(account('@news'));
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, true);
    assert.equal(error.retryAfterMs, 3000);
  });

  for (const status of [500, 502, 503, 504]) {
    it(`${status} → platform_unavailable, retryable`, async () => {
      tg.injectServerError(status);
      const error = await post(account('@news'));
      assert.equal(error.code, 'platform_unavailable');
      assert.equal(error.retryable, true);
    });
  }

  it('an HTML error page from a proxy → platform_unavailable', async () => {
    tg.inject({ status: 502, text: '<html>Bad Gateway</html>' });
    const error = await post(account('@news'));
    assert.equal(error.code, 'platform_unavailable');
    assert.equal(error.retryable, true);
  });

  it('a 200 that is not a Bot API answer is not retried (it may have been posted)', async () => {
    tg.inject({ status: 200, text: 'ok' });
    const error = await post(account('@news'));
    assert.equal(error.code, 'platform_unavailable');
    assert.equal(error.retryable, false);
  });

  it('no answer in time → timeout, retryable, without the token', async () => {
    tg.inject({ delayMs: 1000, status: 200, json: { ok: true, result: {} } });
    const impatient = new TelegramPublisher({ apiUrl: tg.url, requestTimeoutMs: 200 });
    const error = await failure(impatient.publish({ message: 'x' }, account('@news'), [], {}, context()));
    assert.equal(error.code, 'timeout');
    assert.equal(error.retryable, true);
    assertNoToken(error);
  });

  it('a dropped connection → network_error, retryable, without the token', async () => {
    tg.inject({ drop: true });
    const error = await post(account('@news'));
    assert.ok(['network_error', 'timeout'].includes(error.code), error.code);
    assert.equal(error.retryable, true);
    assertNoToken(error);
  });

  it('an unreachable server → network_error without the token', async () => {
    const offline = new TelegramPublisher({ apiUrl: 'http://127.0.0.1:9', requestTimeoutMs: 2000 });
    const error = await failure(offline.publish({ message: 'x' }, account('@news'), [], {}, context()));
    assert.equal(error.code, 'network_error');
    assertNoToken(error);
  });
});

describe('Telegram verifyCredentials', () => {
  let tg: FakeTelegram;
  let publisher: TelegramPublisher;
  before(async () => {
    tg = await startTelegram();
    publisher = new TelegramPublisher({ apiUrl: tg.url });
  });
  after(() => tg.close());

  it('returns the channel title and username', async () => {
    assert.deepEqual(await publisher.verifyCredentials(account('@news')), { name: 'News', username: 'news' });
  });

  it('returns a private group by id without a username', async () => {
    assert.deepEqual(await publisher.verifyCredentials(account('-1009876543210')), { name: 'Team' });
  });

  it('returns a user chat by first name', async () => {
    assert.deepEqual(await publisher.verifyCredentials(account('42')), { name: 'Ada', username: 'ada' });
  });

  it('never returns anything containing the token', async () => {
    const profile = await publisher.verifyCredentials(account('@news'));
    assert.ok(!JSON.stringify(profile).includes(botToken));
  });

  const failures: [string, PlatformAccount, string, RegExp][] = [
    [
      'an unknown token',
      account('@news', { credentials: { botToken: otherToken } }),
      'credentials_invalid',
      /bot token/,
    ],
    ['an unknown chat', account('@nope'), 'target_unreachable', /cannot find/],
    ['a public channel the bot was kicked from', account('@gone'), 'target_unreachable', /not a member/],
    ['a public channel the bot is not in', account('@left'), 'target_unreachable', /not a member/],
    ['a channel where the bot is not an admin', account('@readonly'), 'target_unreachable', /administrator/],
  ];
  for (const [name, target, code, message] of failures) {
    it(`${name} → ${code}`, async () => {
      const error = await failure(publisher.verifyCredentials(target));
      assert.equal(error.code, code);
      assert.match(error.message, message);
      assertNoToken(error, target.credentials.botToken as string);
    });
  }
});
