import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeHashnode, startFakeHashnode } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { publishNow } from './chat-platforms.helpers.ts';
import { scheduleAndDispatch, uploadPng } from './support.ts';

const blog = { id: '65f0aaaaaaaaaaaaaaaaaaa1', title: 'Alice writes', url: 'https://alice.hashnode.dev' };
const team = { id: '65f0bbbbbbbbbbbbbbbbbbb2', title: 'Team blog', url: 'https://blog.team.example' };

for (const backend of backends()) {
  describe(`Scheduler: Hashnode over HTTP (${backend})`, () => {
    let hashnode: FakeHashnode;
    let app: RunningApp;
    before(async () => {
      hashnode = await startFakeHashnode({ 'hn-token': { username: 'alice', publications: [blog, team] } });
      // HASHNODE_API_URL is the operator's: trusted, so a loopback fake needs no ALLOW_PRIVATE_HOSTS.
      app = await startApp(backend, hashnode.env());
    });
    after(async () => {
      await app?.stop();
      await hashnode?.close();
    });

    test('connects with a token (first publication, or one named by host), publishes now and a scheduled draft', async () => {
      const { api } = await userWithToken(app.url, 'hashnode');
      const first = await api.json('/api/v1/accounts', {
        json: { platform: 'hashnode', credentials: { personalAccessToken: 'hn-token' } },
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual([first.body.platformAccountId, first.body.label], [blog.id, 'Alice writes']);
      const byHost = await api.json('/api/v1/accounts', {
        json: {
          platform: 'hashnode',
          platformAccountId: 'blog.team.example',
          credentials: { personalAccessToken: 'hn-token' },
        },
      });
      assert.equal(byHost.status, 201, JSON.stringify(byHost.body));
      assert.equal(byHost.body.platformAccountId, team.id);
      const wrong = await api.json('/api/v1/accounts', {
        json: { platform: 'hashnode', credentials: { personalAccessToken: 'nope' } },
      });
      assert.equal(wrong.body.code, 'credentials_invalid');
      assert.ok(!JSON.stringify(await api.json('/api/v1/accounts')).includes('hn-token'));

      const account = first.body.id;
      const media = await uploadPng(api);
      const validation = await api.json('/api/v1/validation', {
        json: { message: 'T', accountIds: [account], media: [media] },
      });
      assert.deepEqual(
        validation.body.results[0].warnings.map((w: { code: string }) => w.code),
        ['media_url_not_public'],
      );
      const now = await publishNow(api, {
        message: 'Shipping notes\n\nBody in *Markdown*.',
        accountIds: [account],
        media: [media],
        accountOptions: { [account]: { tags: ['Release'], subtitle: 'What changed' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const post = hashnode.posts.at(-1)!;
      assert.deepEqual(
        [post.kind, post.publicationId, post.title, post.subtitle, post.contentMarkdown, post.tags],
        [
          'post',
          blog.id,
          'Shipping notes',
          'What changed',
          'Body in *Markdown*.',
          [{ slug: 'release', name: 'Release' }],
        ],
      );
      assert.equal(post.coverImageURL, media.url);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Later draft\n\nx',
        accountIds: [account],
        accountOptions: { [account]: { draft: true } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      assert.deepEqual([hashnode.posts.at(-1)!.title, hashnode.posts.at(-1)!.kind], ['Later draft', 'draft']);
    });
  });
}
