import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { telegramManifest } from '../../../src/platforms/telegram/manifest.ts';
import { account, context, telegramFixture } from './setup.ts';

const fx = telegramFixture();

describe('Telegram metrics (contract section H)', () => {
  it('reads followers from getChatMemberCount, and changes with the chat', async () => {
    fx.tg.setMemberCount('@news', 1200);
    assert.deepEqual(await fx.publisher.accountMetrics(account('@news'), context()), { followers: 1200 });
    fx.tg.setMemberCount('@news', 1250);
    assert.deepEqual(await fx.publisher.accountMetrics(account('@news'), context()), { followers: 1250 });
  });

  it('reports no post metrics: the Bot API has none', () => {
    assert.equal('metrics' in fx.publisher, false);
    assert.deepEqual(telegramManifest.analytics, { post: [], account: ['followers'] });
  });

  it('a private chat that blocked the bot is refused', async () => {
    await assert.rejects(fx.publisher.accountMetrics(account('43'), context()));
  });
});
