import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTumblr, startFakeTumblr } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { signUp } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import {
  accountsOf,
  connectByOAuth,
  pick,
  pickerChoices,
  publishNow,
  scheduleAndDispatch,
} from './chat-platforms.helpers.ts';
import { uploadPng } from './support.ts';

/*
 * Tumblr through the Scheduler over HTTP: OAuth against the fake, the picker offering every blog
 * of the login, one shared grant for them (a refresh token rotated by a publish to one blog is
 * the one the other blog spends next), publishing now and on schedule, and a revoked login
 * marking every blog needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Tumblr through the Scheduler (${backend})`, () => {
    let tumblr: FakeTumblr;
    let app: RunningApp;
    before(async () => {
      tumblr = await startFakeTumblr();
      app = await startApp(backend, tumblr.env());
    });
    after(async () => {
      await app?.stop();
      await tumblr?.close();
    });

    test('connect a login with two blogs; they share one grant through refreshes; now and scheduled', async () => {
      // Access tokens inside the refresh margin: every publish renews first.
      tumblr.accessTtlSec = 30;
      const { client } = await signUp(app.url, 'tumblr');
      const landing = await connectByOAuth(client, 'tumblr');
      const { html, ids } = await pickerChoices(client, landing);
      assert.deepEqual(ids.sort(), ['alice', 'alice-art']);
      assert.match(html, /Alice draws/);
      assert.doesNotMatch(html, /tat-|trt-/, 'no token on the page');
      await pick(client, 'tumblr', landing, ids);
      const accounts = await accountsOf(client, 'tumblr');
      const main = accounts.find((a) => a.platformAccountId === 'alice');
      const art = accounts.find((a) => a.platformAccountId === 'alice-art');
      assert.ok(main && art, JSON.stringify(accounts));
      assert.ok(!JSON.stringify(accounts).match(/tat-|trt-/));

      const media = await uploadPng(client);
      const now = await publishNow(client, {
        message: 'Hello Tumblr\n\nSecond paragraph',
        accountIds: [main.id],
        media: [{ ...media, altText: 'A cover' }],
        accountOptions: { [main.id]: { tags: 'hello, world' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const first = tumblr.posts.find((p) => p.id === now.results[0].platformPostId)!;
      assert.equal(first.blog, 'alice');
      assert.equal(first.encoding, 'multipart');
      assert.deepEqual(first.tags, ['hello', 'world']);
      assert.equal(first.content[2].alt_text, 'A cover');
      assert.equal(now.results[0].url, `https://www.tumblr.com/alice/${first.id}`);
      const afterFirst = tumblr.refreshLog.length;
      assert.ok(afterFirst >= 1, 'the short-lived token was refreshed');

      // The other blog spends the refresh token the first publish got: the grant is shared.
      const later = await scheduleAndDispatch(app, client, {
        message: 'Queued on the art blog',
        accountIds: [art.id],
        accountOptions: { [art.id]: { state: 'queue' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      const queued = tumblr.posts.find((p) => p.id === later.results[0].platformPostId)!;
      assert.deepEqual([queued.blog, queued.state], ['alice-art', 'queue']);
      assert.ok(tumblr.refreshLog.length > afterFirst, 'the other blog refreshed too');
      // Every refresh spent the refresh token the one before it got: one grant for both blogs.
      // (Two copies would each spend their own token, and the second copy's would be dead.)
      for (let i = 1; i < tumblr.refreshLog.length; i++)
        assert.equal(tumblr.refreshLog[i]!.spent, tumblr.refreshLog[i - 1]!.issued, `refresh ${i}`);
    });

    test('a revoked login fails the post and marks every blog of it needs_reconnect', async () => {
      tumblr.accessTtlSec = 2520;
      const { client } = await signUp(app.url, 'tumblr-revoked');
      const landing = await connectByOAuth(client, 'tumblr');
      await pick(client, 'tumblr', landing, ['alice', 'alice-art']);
      const accounts = await accountsOf(client, 'tumblr');
      tumblr.revoke();
      const main = accounts.find((a) => a.platformAccountId === 'alice');
      const failed = await publishNow(client, { message: 'Will not go out', accountIds: [main.id] });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      for (const account of accounts)
        assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
    });
  });
}
