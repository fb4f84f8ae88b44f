import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeFarcaster, startFakeFarcaster } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { userWithToken } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';
import { uploadPng } from './support.ts';

const signer = '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec';
const pending = '2a3b4c5d-0000-4000-8000-000000000001';

/*
 * Farcaster through the Scheduler over HTTP: connecting a Neynar managed signer by form (an
 * unapproved one refused), a cast now with our media URL as an embed and a channel, a scheduled
 * cast, and a signer revoked later marking the account needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Farcaster through the Scheduler (${backend})`, () => {
    let neynar: FakeFarcaster;
    let app: RunningApp;
    before(async () => {
      neynar = await startFakeFarcaster({
        signers: { [signer]: { fid: 1042 }, [pending]: { fid: 1042, status: 'pending_approval' } },
      });
      app = await startApp(backend, neynar.env());
    });
    after(async () => {
      await app?.stop();
      await neynar?.close();
    });

    test('connect a signer, cast now with an embed in a channel, cast on schedule, lose the signer', async () => {
      const { api } = await userWithToken(app.url, 'farcaster');
      const refused = await api.json('/api/v1/accounts', {
        json: { platform: 'farcaster', credentials: { signerUuid: pending } },
      });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));

      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'farcaster', credentials: { signerUuid: signer } },
      });
      assert.equal(account.status, 201, JSON.stringify(account.body));
      assert.equal(account.body.platformAccountId, '1042');
      assert.equal(account.body.label, 'Alice');
      assert.ok(!JSON.stringify(account.body).includes(signer), 'the signer is not echoed');
      const id = account.body.id;

      const media = await uploadPng(api);
      const now = await publishNow(api, {
        message: 'Hello Farcaster',
        accountIds: [id],
        media: [media],
        accountOptions: { [id]: { channelId: 'dev' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const cast = neynar.casts.find((c) => c.hash === now.results[0].platformPostId)!;
      assert.deepEqual(
        [cast.text, cast.channelId, cast.embeds],
        ['Hello Farcaster', 'dev', [{ url: media.url }]],
      );
      assert.equal(cast.idem?.length, 16);

      const long = await api.json('/api/v1/posts', {
        json: { message: 'é'.repeat(161), accountIds: [id], postingMode: 'now' },
      });
      assert.equal(long.status, 422, JSON.stringify(long.body));

      const later = await scheduleAndDispatch(app, api, { message: 'Scheduled cast', accountIds: [id] });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(neynar.casts.at(-1)!.text, 'Scheduled cast');

      neynar.signers.get(signer)!.status = 'revoked';
      const failed = await publishNow(api, { message: 'Will not go out', accountIds: [id] });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      assert.equal((await api.json(`/api/v1/accounts/${id}`)).body.status, 'needs_reconnect');
    });
  });
}
