import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeWordPress, startFakeWordPress } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { scheduleAndDispatch, uploadPng } from './support.ts';

const password = 'abcd efgh ijkl mnop qrst uvwx';

for (const backend of backends()) {
  describe(`Scheduler: WordPress over HTTP (${backend})`, () => {
    let wordpress: FakeWordPress;
    let app: RunningApp;
    before(async () => {
      wordpress = await startFakeWordPress({
        siteName: 'Team Blog',
        users: [{ username: 'alice', role: 'editor', applicationPasswords: [password] }],
      });
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(wordpress.url).host });
    });
    after(async () => {
      await app?.stop();
      await wordpress?.close();
    });

    const connect = (api: Awaited<ReturnType<typeof userWithToken>>['api'], credentials: object) =>
      api.json('/api/v1/accounts', { json: { platform: 'wordpress', credentials } });

    test('connects with an application password; the credentials never come back', async () => {
      const { api } = await userWithToken(app.url, 'wp');
      const res = await connect(api, wordpress.credentials('alice', password));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.platformAccountId, wordpress.url);
      assert.equal(res.body.label, 'Team Blog');
      assert.equal(res.body.username, 'alice');
      const list = await api.json('/api/v1/accounts');
      assert.ok(!JSON.stringify(list.body).includes(password));
      const wrong = await connect(api, wordpress.credentials('alice', 'wrong password'));
      assert.equal(wrong.status, 422);
      assert.equal(wrong.body.code, 'credentials_invalid');
    });

    test('publishes now with a featured image and options, and a scheduled post at its time', async () => {
      const { api } = await userWithToken(app.url, 'wp-post');
      const account = (await connect(api, wordpress.credentials('alice', password))).body.id;
      const media = await uploadPng(api);
      const now = await api.json('/api/v1/posts', {
        json: {
          message: 'Now live\n\nWith **Markdown**.',
          accountIds: [account],
          postingMode: 'now',
          media: [{ ...media, altText: 'Cover' }],
          accountOptions: { [account]: { categories: ['Launches'], status: 'publish' } },
        },
      });
      assert.equal(now.status, 201, JSON.stringify(now.body));
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body.results));
      const post = wordpress.posts.at(-1)!;
      assert.equal(post.title, 'Now live');
      assert.equal(post.content, '<p>With <strong>Markdown</strong>.</p>\n');
      assert.equal(now.body.results[0].platformPostId, String(post.id));
      assert.equal(wordpress.media.at(-1)!.altText, 'Cover');

      const later = await scheduleAndDispatch(app, api, {
        message: 'Later on\n\nScheduled.',
        accountIds: [account],
        accountOptions: { [account]: { status: 'draft' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      assert.deepEqual(
        [wordpress.posts.at(-1)!.title, wordpress.posts.at(-1)!.status],
        ['Later on', 'draft'],
      );
    });

    test('validation refuses a post without a title before anything is sent', async () => {
      const { api } = await userWithToken(app.url, 'wp-check');
      const account = (await connect(api, wordpress.credentials('alice', password))).body.id;
      const before = wordpress.posts.length;
      const res = await api.json('/api/v1/posts', {
        json: { message: '\n\n', accountIds: [account], postingMode: 'now' },
      });
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].code, 'title_required');
      assert.equal(wordpress.posts.length, before);
    });

    test('a private site address is refused unless ALLOW_PRIVATE_HOSTS names it; nothing is sent', async () => {
      const { api } = await userWithToken(app.url, 'wp-ssrf');
      const seen = wordpress.server.requests.length;
      // Loopback, but not the port ALLOW_PRIVATE_HOSTS names (the app's own), private and metadata addresses.
      const port = new URL(app.url).port;
      const sites = [
        `http://127.0.0.1:${port}`,
        `http://localhost:${port}`,
        'http://10.0.0.7/blog',
        'http://169.254.169.254',
      ];
      for (const siteUrl of sites) {
        const res = await connect(api, { siteUrl, username: 'alice', applicationPassword: password });
        assert.equal(res.status, 422, siteUrl);
        assert.equal(res.body.code, 'target_unreachable', siteUrl);
      }
      assert.equal(wordpress.server.requests.length, seen);
    });
  });
}
