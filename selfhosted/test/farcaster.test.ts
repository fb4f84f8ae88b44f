import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeFarcaster, samplePng, startFakeFarcaster } from '@postwave/shared/testing';
import { fakeTelegram, startTestServer, type TestServer, telegramAccounts } from './helpers.ts';

const signer = '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec';

describe('self-hosted: Farcaster', () => {
  let neynar: FakeFarcaster;
  let server: TestServer;
  before(async () => {
    neynar = await startFakeFarcaster();
    server = await startTestServer({
      env: neynar.env(),
      accounts: [
        { id: 'fc', platform: 'farcaster', platformAccountId: '1042', credentials: { signerUuid: signer } },
      ],
    });
  });
  after(async () => {
    await server.close();
    await neynar.close();
  });

  it('counts bytes (320, 1024 with longCast), then casts in a channel with our media URL as an embed', async () => {
    const codes = async (json: object) => {
      const answer = await server.api('/api/v1/validation', { json });
      const outcome = (await answer.json()) as {
        results: { errors: { code: string }[]; warnings: { code: string }[] }[];
      };
      return outcome.results[0]!;
    };
    assert.deepEqual(
      (await codes({ message: 'é'.repeat(161), accountIds: ['fc'] })).errors.map((e) => e.code),
      ['text_too_long'],
    );
    assert.deepEqual(
      (
        await codes({
          message: 'é'.repeat(161),
          accountIds: ['fc'],
          accountOptions: { fc: { longCast: true } },
        })
      ).errors,
      [],
    );

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'dot.png');
    const { media } = (await (await server.api('/api/v1/upload', { method: 'POST', body })).json()) as {
      media: { url: string };
    };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'From the self-hosted server',
        accountIds: ['fc'],
        postingMode: 'now',
        media: [media],
        accountOptions: { fc: { channelId: 'dev' } },
      },
    });
    const result = (await response.json()) as { results: { platformPostId: string; url: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    const cast = neynar.casts.at(-1)!;
    assert.deepEqual(
      [cast.text, cast.channelId, cast.embeds],
      ['From the self-hosted server', 'dev', [{ url: media.url }]],
    );
    assert.equal(cast.idem?.length, 16);
    assert.equal(result.results[0]!.platformPostId, cast.hash);
  });
});

describe('self-hosted: Farcaster without NEYNAR_API_KEY', () => {
  it('refuses the whole post (422) before the Telegram target is sent', async () => {
    const neynar = await startFakeFarcaster();
    const telegram = await fakeTelegram();
    const server = await startTestServer({
      telegram,
      env: { FARCASTER_API_URL: neynar.url },
      accounts: [
        ...telegramAccounts,
        { id: 'fc', platform: 'farcaster', platformAccountId: '1042', credentials: { signerUuid: signer } },
      ],
    });
    try {
      const response = await server.api('/api/v1/posts', {
        json: { message: 'Hello', accountIds: ['tg-main', 'fc'], postingMode: 'now' },
      });
      const body = (await response.json()) as { code: string; errors: { accountId: string; code: string }[] };
      assert.equal(response.status, 422);
      assert.deepEqual(
        body.errors.map((e) => [e.accountId, e.code]),
        [['fc', 'platform_not_configured']],
      );
      assert.equal(telegram.sent.length, 0);
      assert.equal(neynar.casts.length, 0);
    } finally {
      await server.close();
      await telegram.close();
      await neynar.close();
    }
  });
});
