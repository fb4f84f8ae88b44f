import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PublisherRegistry, platformModules } from '../../../src/platforms/registry.ts';
import { telegramConfigFromEnv, telegramModule } from '../../../src/platforms/telegram/index.ts';
import type { FakeTelegram } from '../../fakes/telegram.ts';
import { mediaFile } from './media.ts';
import { account, context, startTelegram } from './setup.ts';

describe('Telegram module', () => {
  it('is registered', () => {
    assert.ok(platformModules.includes(telegramModule));
    const publisher = PublisherRegistry.fromEnv({}).get('telegram');
    assert.equal(publisher?.displayName, 'Telegram');
    assert.equal(publisher?.concurrency, 100);
    assert.equal(publisher?.credentialConcurrency, 30);
  });

  it('limits concurrency per bot, keyed by a digest of the token rather than the token', () => {
    const publisher = PublisherRegistry.fromEnv({}).get('telegram')!;
    const key = (botToken: string) =>
      publisher.concurrencyKey?.({
        id: 'a',
        platform: 'telegram',
        platformAccountId: '@c',
        credentials: { botToken },
      });
    const first = key('123456:secretTokenA');
    assert.ok(first);
    assert.ok(!first.includes('secretTokenA') && !first.includes('123456'));
    assert.equal(key('123456:secretTokenA'), first);
    assert.notEqual(key('123456:secretTokenB'), first);
  });

  it('defaults to api.telegram.org, 10 MB photos and 50 MB files', () => {
    assert.deepEqual(telegramConfigFromEnv({}), {
      apiUrl: 'https://api.telegram.org',
      limits: { maxPhotoBytes: 10_000_000, maxFileBytes: 50_000_000 },
    });
  });

  it('reads a local Bot API server and its limits', () => {
    const config = telegramConfigFromEnv({
      TELEGRAM_API_URL: 'http://bot-api:8081/',
      TELEGRAM_MAX_PHOTO_BYTES: '20000000',
      TELEGRAM_MAX_FILE_BYTES: '2000000000',
    });
    assert.deepEqual(config, {
      apiUrl: 'http://bot-api:8081',
      limits: { maxPhotoBytes: 20_000_000, maxFileBytes: 2_000_000_000 },
    });
  });

  const bad: [string, Record<string, string>, RegExp][] = [
    ['a malformed URL', { TELEGRAM_API_URL: 'not a url' }, /TELEGRAM_API_URL/],
    ['a non-http URL', { TELEGRAM_API_URL: 'ftp://x' }, /TELEGRAM_API_URL/],
    ['a non-numeric size', { TELEGRAM_MAX_FILE_BYTES: '50MB' }, /TELEGRAM_MAX_FILE_BYTES/],
    ['a zero size', { TELEGRAM_MAX_PHOTO_BYTES: '0' }, /TELEGRAM_MAX_PHOTO_BYTES/],
  ];
  for (const [name, env, message] of bad) {
    it(`refuses to start with ${name}`, () => assert.throws(() => telegramModule.create(env), message));
  }
});

describe('Telegram limits from the environment', () => {
  let tg: FakeTelegram;
  before(async () => {
    tg = await startTelegram({ maxPhotoBytes: 500, maxFileBytes: 800 });
  });
  after(() => tg.close());

  it('validates and uploads up to the configured limits', async () => {
    const publisher = telegramModule.create({
      TELEGRAM_API_URL: tg.url,
      TELEGRAM_MAX_PHOTO_BYTES: '500',
      TELEGRAM_MAX_FILE_BYTES: '800',
    });
    const atLimit = [mediaFile('image/jpeg', { size: 500 })];
    assert.deepEqual((await publisher.validate({ message: '' }, account('@news'), atLimit, {})).errors, []);
    await publisher.publish({ message: '' }, account('@news'), atLimit, {}, context());
    assert.equal(tg.sent[0]!.files[0]!.size, 500);

    const video = [mediaFile('video/mp4', { size: 800 })];
    await publisher.publish({ message: '' }, account('@news'), video, {}, context());
    assert.equal(tg.sent[1]!.files[0]!.size, 800);

    const over = [mediaFile('video/mp4', { size: 801 })];
    const outcome = await publisher.validate({ message: '' }, account('@news'), over, {});
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['media_too_large'],
    );
  });
});
