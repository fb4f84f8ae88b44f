import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envPlatformRates } from '../../src/platforms/env.ts';

describe('PUBLISH_RATE_<PLATFORM>_<SCOPE>', () => {
  it('reads rates, "off", and platform ids with underscores', () => {
    const rates = envPlatformRates({
      PUBLISH_RATE_TELEGRAM_BOT: '30/1s',
      PUBLISH_RATE_TELEGRAM_CHAT: '20 / 60s',
      PUBLISH_RATE_DISCORD_WEBHOOK: 'off',
      PUBLISH_RATE_GOOGLE_BUSINESS_LOCATION: '10/m',
      PUBLISH_RATE_X_USER: '100/500ms',
      PUBLISH_RATE_EMPTY_BOT: '',
    });
    assert.deepEqual(rates.get('telegram:bot'), { limit: 30, windowMs: 1000 });
    assert.deepEqual(rates.get('telegram:chat'), { limit: 20, windowMs: 60_000 });
    assert.equal(rates.get('discord:webhook'), null);
    assert.deepEqual(rates.get('google_business:location'), { limit: 10, windowMs: 60_000 });
    assert.deepEqual(rates.get('x:user'), { limit: 100, windowMs: 500 });
    assert.equal(rates.has('empty:bot'), false);
  });

  it('refuses a malformed rate, naming the variable', () => {
    for (const value of ['30', '0/1s', '30/0s', 'fast', '-1/1s'])
      assert.throws(
        () => envPlatformRates({ PUBLISH_RATE_TELEGRAM_BOT: value }),
        /PUBLISH_RATE_TELEGRAM_BOT/,
      );
  });
});
