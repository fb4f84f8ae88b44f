import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeMisskey, startFakeMisskey } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { type InternalService, internalService, scheduleAndDispatch } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Misskey over HTTP (${backend})`, () => {
    let app: RunningApp;
    let misskey: FakeMisskey;
    let internal: InternalService;
    before(async () => {
      misskey = await startFakeMisskey({
        tokens: { 'mk-token': { id: '9mika', username: 'mika', name: 'Mika' } },
      });
      internal = await internalService();
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(misskey.url).host });
    });
    after(async () => {
      await app?.stop();
      await misskey?.close();
      await internal?.close();
    });

    test('a private instance is refused unless allowed; the allowed one connects and publishes now and scheduled', async () => {
      const { api } = await userWithToken(app.url, 'misskey');
      const refused = await api.json('/api/v1/accounts', {
        json: { platform: 'misskey', credentials: { instanceUrl: internal.url, accessToken: 'mk-token' } },
      });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'target_unreachable');
      assert.deepEqual(internal.hits, [], 'nothing reached the private service');

      const bad = await api.json('/api/v1/accounts', {
        json: { platform: 'misskey', credentials: misskey.credentials('wrong') },
      });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.code, 'credentials_invalid');

      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'misskey', credentials: misskey.credentials('mk-token') },
      });
      assert.equal(account.status, 201, JSON.stringify(account.body));
      assert.equal(account.body.platformAccountId, '9mika');
      assert.equal(account.body.label, 'Mika');
      const id = account.body.id;

      const now = await api.json('/api/v1/posts', {
        json: {
          message: 'Hello from the Scheduler',
          accountIds: [id],
          postingMode: 'now',
          accountOptions: { [id]: { visibility: 'followers' } },
        },
      });
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body));
      assert.equal(misskey.notes.at(-1)!.visibility, 'followers');

      const later = await scheduleAndDispatch(app, api, { message: 'Scheduled note', accountIds: [id] });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(misskey.notes.at(-1)!.text, 'Scheduled note');
    });
  });
}
