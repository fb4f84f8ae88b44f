import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakePixelfed, samplePng, startFakePixelfed } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { type InternalService, internalService, scheduleAndDispatch } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Pixelfed over HTTP (${backend})`, () => {
    let app: RunningApp;
    let pixelfed: FakePixelfed;
    let internal: InternalService;
    before(async () => {
      pixelfed = await startFakePixelfed({
        tokens: { 'px-token': { id: '42', username: 'pat', displayName: 'Pat' } },
      });
      internal = await internalService();
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(pixelfed.url).host });
    });
    after(async () => {
      await app?.stop();
      await pixelfed?.close();
      await internal?.close();
    });

    test('a private instance is refused unless allowed; photos publish now and scheduled, media required', async () => {
      const { api } = await userWithToken(app.url, 'pixelfed');
      const refused = await api.json('/api/v1/accounts', {
        json: { platform: 'pixelfed', credentials: { instanceUrl: internal.url, accessToken: 'px-token' } },
      });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.code, 'target_unreachable');
      assert.deepEqual(internal.hits, []);

      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'pixelfed', credentials: pixelfed.credentials('px-token') },
      });
      assert.equal(account.status, 201, JSON.stringify(account.body));
      assert.equal(account.body.platformAccountId, '42');
      const id = account.body.id;

      const noPhoto = await api.json('/api/v1/posts', {
        json: { message: 'Words only', accountIds: [id], postingMode: 'now' },
      });
      assert.equal(noPhoto.status, 422);

      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'photo.png');
      const uploaded = await api.json('/api/v1/upload', { method: 'POST', body: form });
      const media = uploaded.body.media;
      const now = await api.json('/api/v1/posts', {
        json: { message: 'A photo', accountIds: [id], postingMode: 'now', media: [media] },
      });
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body));
      assert.equal(pixelfed.statuses.at(-1)!.caption, 'A photo');

      const later = await scheduleAndDispatch(app, api, {
        message: 'Later photo',
        accountIds: [id],
        media: [media],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(pixelfed.statuses.at(-1)!.caption, 'Later photo');
    });
  });
}
