import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeLemmy, startFakeLemmy } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { type InternalService, internalService, scheduleAndDispatch } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Lemmy over HTTP (${backend})`, () => {
    let app: RunningApp;
    let lemmy: FakeLemmy;
    let internal: InternalService;
    before(async () => {
      lemmy = await startFakeLemmy({
        users: [{ username: 'lea', password: 'pw-lea' }],
        communities: [{ id: 4, name: 'fediverse', title: 'Fediverse' }],
      });
      internal = await internalService();
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: lemmy.host });
    });
    after(async () => {
      await app?.stop();
      await lemmy?.close();
      await internal?.close();
    });

    test('a private instance is refused unless allowed; the community connects and posts now and scheduled', async () => {
      const { api } = await userWithToken(app.url, 'lemmy');
      const community = `fediverse@${lemmy.host}`;
      const refused = await api.json('/api/v1/accounts', {
        json: {
          platform: 'lemmy',
          platformAccountId: community,
          credentials: { instanceUrl: internal.url, username: 'lea', password: 'pw-lea' },
        },
      });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'target_unreachable');
      assert.deepEqual(internal.hits, []);

      const wrong = await api.json('/api/v1/accounts', {
        json: {
          platform: 'lemmy',
          platformAccountId: community,
          credentials: lemmy.credentials('lea', 'nope'),
        },
      });
      assert.equal(wrong.status, 422);
      assert.equal(wrong.body.code, 'credentials_invalid');

      const account = await api.json('/api/v1/accounts', {
        json: {
          platform: 'lemmy',
          platformAccountId: community,
          credentials: lemmy.credentials('lea', 'pw-lea'),
        },
      });
      assert.equal(account.status, 201, JSON.stringify(account.body));
      assert.equal(account.body.platformAccountId, community);
      assert.equal(account.body.label, 'Fediverse');
      const id = account.body.id;
      assert.ok(!JSON.stringify(account.body).includes('pw-lea'));

      const now = await api.json('/api/v1/posts', {
        json: { message: 'Hello Lemmy\n\nFrom the Scheduler.', accountIds: [id], postingMode: 'now' },
      });
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body));
      assert.equal(lemmy.posts.at(-1)!.name, 'Hello Lemmy');

      const later = await scheduleAndDispatch(app, api, {
        message: 'Scheduled body',
        accountIds: [id],
        accountOptions: { [id]: { title: 'Scheduled title' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(lemmy.posts.at(-1)!.name, 'Scheduled title');
    });
  });
}
