import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeVk, startFakeVk } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { userWithToken } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';
import { uploadPng } from './support.ts';

/*
 * VK through the Scheduler over HTTP: the form connects the user's own wall (empty wall field)
 * and a community wall (-<id>) the token administers, refuses one it does not; a post now with a
 * photo through the wall upload server, a scheduled one, and a revoked token (error 5) marking the
 * account needs_reconnect.
 */
for (const backend of backends()) {
  describe(`VK through the Scheduler (${backend})`, () => {
    let vk: FakeVk;
    let app: RunningApp;
    before(async () => {
      vk = await startFakeVk();
      app = await startApp(backend, vk.env());
    });
    after(async () => {
      await app?.stop();
      await vk?.close();
    });

    test('connect a user wall and a community wall; photo post now, scheduled post, revoked token', async () => {
      const { api } = await userWithToken(app.url, 'vk');
      const own = await api.json('/api/v1/accounts', {
        json: { platform: 'vk', credentials: { accessToken: 'vk1.a.alice' } },
      });
      assert.equal(own.status, 201, JSON.stringify(own.body));
      assert.equal(own.body.platformAccountId, '1001');
      assert.equal(own.body.label, 'Alice Ivanova');

      const notAdmin = await api.json('/api/v1/accounts', {
        json: { platform: 'vk', credentials: { accessToken: 'vk1.a.alice' }, platformAccountId: '-88' },
      });
      assert.equal(notAdmin.status, 422, JSON.stringify(notAdmin.body));

      const club = await api.json('/api/v1/accounts', {
        json: { platform: 'vk', credentials: { accessToken: 'vk1.a.alice' }, platformAccountId: '-77' },
      });
      assert.equal(club.status, 201, JSON.stringify(club.body));
      assert.equal(club.body.label, 'Alice Club');
      assert.ok(!JSON.stringify(club.body).includes('vk1.a.alice'), 'no token in the answer');

      const media = await uploadPng(api);
      const now = await publishNow(api, { message: 'Новости', accountIds: [club.body.id], media: [media] });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const post = vk.posts.find((p) => String(p.id) === now.results[0].platformPostId)!;
      assert.deepEqual([post.ownerId, post.fromGroup, post.attachments.length], [-77, true, 1]);
      assert.equal(now.results[0].url, `https://vk.com/wall-77_${post.id}`);

      const later = await scheduleAndDispatch(app, api, { message: 'On my wall', accountIds: [own.body.id] });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.deepEqual([vk.posts.at(-1)!.ownerId, vk.posts.at(-1)!.fromGroup], [1001, false]);

      vk.revoke('vk1.a.alice');
      const failed = await publishNow(api, { message: 'Will not go out', accountIds: [own.body.id] });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      assert.equal((await api.json(`/api/v1/accounts/${own.body.id}`)).body.status, 'needs_reconnect');
    });
  });
}
