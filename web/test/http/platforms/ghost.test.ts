import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeGhost, startFakeGhost } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { scheduleAndDispatch, uploadPng } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Ghost over HTTP (${backend})`, () => {
    let ghost: FakeGhost;
    let app: RunningApp;
    let key: string;
    before(async () => {
      ghost = await startFakeGhost({ path: '/blog', title: 'Field Notes' });
      key = ghost.addKey();
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(ghost.url).host });
    });
    after(async () => {
      await app?.stop();
      await ghost?.close();
    });

    const connect = (api: Awaited<ReturnType<typeof userWithToken>>['api'], credentials: object) =>
      api.json('/api/v1/accounts', { json: { platform: 'ghost', credentials } });

    test('connects with an Admin API key (verified by an authenticated call)', async () => {
      const { api } = await userWithToken(app.url, 'ghost');
      const res = await connect(api, ghost.credentials(key));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.label, 'Field Notes');
      assert.equal(res.body.platformAccountId, ghost.url);
      assert.ok(!JSON.stringify(await api.json('/api/v1/accounts')).includes(key.split(':')[1]!));
      const other = ghost.addKey();
      ghost.revokeKey(other);
      const revoked = await connect(api, ghost.credentials(other));
      assert.equal(revoked.status, 422);
      assert.equal(revoked.body.code, 'credentials_invalid');
      const malformed = await connect(api, { siteUrl: ghost.url, adminApiKey: 'not-a-key' });
      assert.equal(malformed.status, 422);
    });

    test('publishes now with a feature image and tags, and a scheduled draft at its time', async () => {
      const { api } = await userWithToken(app.url, 'ghost-post');
      const account = (await connect(api, ghost.credentials(key))).body.id;
      const media = await uploadPng(api);
      const now = await api.json('/api/v1/posts', {
        json: {
          message: 'Published now\n\nHello _Ghost_.',
          accountIds: [account],
          postingMode: 'now',
          media: [media],
          accountOptions: { [account]: { tags: ['News'] } },
        },
      });
      assert.equal(now.status, 201, JSON.stringify(now.body));
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body.results));
      const post = ghost.posts.at(-1)!;
      assert.deepEqual([post.title, post.status, post.tags], ['Published now', 'published', ['News']]);
      assert.equal(post.featureImage, ghost.images.at(-1)!.url);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Draft later\n\nx',
        accountIds: [account],
        accountOptions: { [account]: { status: 'draft' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      assert.deepEqual([ghost.posts.at(-1)!.title, ghost.posts.at(-1)!.status], ['Draft later', 'draft']);
    });

    test('a private site address is refused unless ALLOW_PRIVATE_HOSTS names it', async () => {
      const { api } = await userWithToken(app.url, 'ghost-ssrf');
      const seen = ghost.server.requests.length;
      const res = await connect(api, {
        // Loopback, but not the port ALLOW_PRIVATE_HOSTS names (this is the app's own).
        siteUrl: `http://127.0.0.1:${new URL(app.url).port}/blog`,
        adminApiKey: key,
      });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'target_unreachable');
      assert.equal(ghost.server.requests.length, seen);
    });
  });
}
