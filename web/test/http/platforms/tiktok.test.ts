import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTikTok, sampleJpeg, sampleMp4, startFakeTikTok } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { type Client, signUp } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { accountsOf, connectByOAuth, publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

async function uploadFile(api: Client, bytes: Buffer, name: string, type: string): Promise<Json> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await api.json('/api/v1/upload', { method: 'POST', body: form });
  // 200: the workspace already had these bytes and the media library answers that media (docs/media-library.md).
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return res.body.media;
}

/*
 * TikTok through the Scheduler over HTTP: Login Kit OAuth against the fake, the privacy levels
 * served from creator_info by the option choices route, validation refusing a level the creator
 * is not offered, a video published now by FILE_UPLOAD, photos on schedule, and a revoked app
 * marking the account needs_reconnect.
 */
for (const backend of backends()) {
  describe(`TikTok through the Scheduler (${backend})`, () => {
    let tiktok: FakeTikTok;
    let app: RunningApp;
    before(async () => {
      tiktok = await startFakeTikTok();
      app = await startApp(backend, tiktok.env());
    });
    after(async () => {
      await app?.stop();
      await tiktok?.close();
    });

    test('connect, privacy levels from creator_info, publish a video now and photos on schedule', async () => {
      const { client } = await signUp(app.url, 'tiktok');
      const landing = await connectByOAuth(client, 'tiktok');
      assert.equal(landing.pathname, '/accounts', 'one creator per login: connected without a picker');
      const [account] = await accountsOf(client, 'tiktok');
      assert.equal(account.platformAccountId, tiktok.creator.openId);
      assert.ok(!JSON.stringify(account).includes('act.'), 'no token in the answer');

      const choices = await client.json(`/api/v1/accounts/${account.id}/options/privacyLevel`);
      assert.equal(choices.status, 200, JSON.stringify(choices.body));
      assert.deepEqual(
        choices.body.choices.map((c: Json) => c.value),
        ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      );

      const video = await uploadFile(client, sampleMp4(), 'clip.mp4', 'video/mp4');
      const refused = await client.json('/api/v1/validation', {
        json: {
          message: 'x',
          accountIds: [account.id],
          media: [video],
          accountOptions: { [account.id]: { privacyLevel: 'FOLLOWER_OF_CREATOR' } },
        },
      });
      assert.equal(refused.body.valid, false, JSON.stringify(refused.body));
      assert.deepEqual(
        refused.body.results[0].errors.map((e: Json) => e.code),
        ['option_not_offered'],
      );
      const missing = await client.json('/api/v1/validation', {
        json: { message: 'x', accountIds: [account.id], media: [video] },
      });
      assert.deepEqual(
        missing.body.results[0].errors.map((e: Json) => e.code),
        ['option_required'],
      );

      const now = await publishNow(client, {
        message: 'Now on TikTok',
        accountIds: [account.id],
        media: [video],
        accountOptions: { [account.id]: { privacyLevel: 'SELF_ONLY' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const posted = tiktok.posts.find((p) => p.publishId === now.results[0].platformPostId)!;
      assert.equal(posted.source, 'FILE_UPLOAD');
      assert.equal(Buffer.concat(posted.received).length, sampleMp4().length);

      const photo = await uploadFile(client, sampleJpeg(), 'photo.jpg', 'image/jpeg');
      const later = await scheduleAndDispatch(app, client, {
        message: 'Photos later',
        accountIds: [account.id],
        media: [photo],
        accountOptions: { [account.id]: { privacyLevel: 'SELF_ONLY', title: 'Later' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      const photos = tiktok.posts.find((p) => p.publishId === later.results[0].platformPostId)!;
      assert.equal(photos.kind, 'photo');
      assert.equal(photos.downloaded[0]?.bytes, sampleJpeg().length);
    });

    test('a revoked app fails the post and marks the account needs_reconnect', async () => {
      const { client } = await signUp(app.url, 'tiktok-revoked');
      await connectByOAuth(client, 'tiktok');
      const [account] = await accountsOf(client, 'tiktok');
      const video = await uploadFile(client, sampleMp4(), 'clip.mp4', 'video/mp4');
      tiktok.revokeAll();
      const failed = await publishNow(client, {
        message: 'Will not go out',
        accountIds: [account.id],
        media: [video],
        accountOptions: { [account.id]: { privacyLevel: 'SELF_ONLY' } },
      });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
    });
  });
}
