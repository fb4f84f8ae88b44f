import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeListmonk, startFakeListmonk } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { internalService, scheduleAndDispatch, uploadPng } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Listmonk over HTTP (${backend})`, () => {
    let listmonk: FakeListmonk;
    let app: RunningApp;
    before(async () => {
      listmonk = await startFakeListmonk({ users: { postwave: 'tok-123' }, path: '/lists' });
      // The server is user-chosen: a loopback one is reached only because the operator allows it.
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(listmonk.url).host });
    });
    after(async () => {
      await app?.stop();
      await listmonk?.close();
    });

    const connect = (
      api: Awaited<ReturnType<typeof userWithToken>>['api'],
      list: string,
      credentials: object,
    ) =>
      api.json('/api/v1/accounts', { json: { platform: 'listmonk', platformAccountId: list, credentials } });

    test('connects an API user to a list (by name), sends a campaign now and leaves a scheduled one a draft', async () => {
      const { api } = await userWithToken(app.url, 'listmonk');
      const res = await connect(api, 'Newsletter', listmonk.credentials('postwave'));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual([res.body.platformAccountId, res.body.label], ['3', 'Newsletter']);
      assert.ok(!JSON.stringify(await api.json('/api/v1/accounts')).includes('tok-123'));
      const wrong = await connect(api, '3', { ...listmonk.credentials('postwave'), apiToken: 'nope' });
      assert.equal(wrong.status, 422);
      assert.equal(wrong.body.code, 'credentials_invalid');

      const account = res.body.id;
      const media = await uploadPng(api);
      const now = await api.json('/api/v1/posts', {
        json: {
          message: 'April news\n\nHello *readers*.',
          accountIds: [account],
          postingMode: 'now',
          media: [media],
        },
      });
      assert.equal(now.status, 201, JSON.stringify(now.body));
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body.results));
      const sent = listmonk.campaigns.at(-1)!;
      assert.deepEqual([sent.subject, sent.status, sent.contentType], ['April news', 'running', 'markdown']);
      assert.ok(sent.body.endsWith('Hello *readers*.'));
      assert.equal(listmonk.media.length, 1);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Draft for May',
        accountIds: [account],
        accountOptions: { [account]: { draft: true, subject: 'May news' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      const draft = listmonk.campaigns.at(-1)!;
      assert.deepEqual([draft.subject, draft.body, draft.status], ['May news', 'Draft for May', 'draft']);
    });

    test('a private server address is refused unless ALLOW_PRIVATE_HOSTS names it', async () => {
      const { api } = await userWithToken(app.url, 'listmonk-ssrf');
      const internal = await internalService();
      try {
        const res = await connect(api, '3', {
          baseUrl: internal.url,
          username: 'postwave',
          apiToken: 'tok-123',
        });
        assert.equal(res.status, 422);
        assert.equal(res.body.code, 'target_unreachable');
        assert.deepEqual(internal.hits, []);
      } finally {
        await internal.close();
      }
    });
  });
}
