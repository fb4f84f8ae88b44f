import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeReddit, startFakeReddit } from '@postwave/shared/testing';
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

/*
 * Reddit through the Scheduler over HTTP: OAuth (permanent grant) with the picker offering the
 * profile and the login's subreddits, flair choices loaded from the platform, validation by the
 * subreddit's rules, publishing now and on schedule, and a revoked login marking every subreddit
 * of it needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Reddit through the Scheduler (${backend})`, () => {
    let reddit: FakeReddit;
    let app: RunningApp;
    before(async () => {
      reddit = await startFakeReddit();
      app = await startApp(backend, reddit.env());
    });
    after(async () => {
      await app?.stop();
      await reddit?.close();
    });

    test('connect with the picker, flair choices, rules in validation, publish now and scheduled', async () => {
      const { client } = await signUp(app.url, 'reddit');
      const landing = await connectByOAuth(client, 'reddit');
      const { html, ids } = await pickerChoices(client, landing);
      assert.deepEqual(ids.sort(), [
        'flairland',
        'linksonly',
        'noimages',
        'postwave',
        'textonly',
        'u_postwave_tester',
      ]);
      assert.match(html, /r\/flairland/);
      assert.doesNotMatch(html, /secretclub/, 'a subreddit the user has no relation to is not offered');
      const done = await pick(client, 'reddit', landing, ['postwave', 'flairland']);
      assert.equal(done.pathname, '/accounts');
      const accounts = await accountsOf(client, 'reddit');
      assert.deepEqual(accounts.map((a) => a.label).sort(), ['r/flairland', 'r/postwave']);
      const flairland = accounts.find((a) => a.platformAccountId === 'flairland');
      const postwave = accounts.find((a) => a.platformAccountId === 'postwave');

      const choices = await client.json(`/api/v1/accounts/${flairland.id}/options/flairId`);
      assert.equal(choices.status, 200, JSON.stringify(choices.body));
      assert.deepEqual(choices.body.choices, [
        { value: 'f-news-0001', label: 'News' },
        { value: 'f-free-0002', label: 'Discussion (editable)' },
      ]);

      const check = async (options: Record<string, unknown>) => {
        const res = await client.json('/api/v1/validation', {
          json: { message: 'Body', accountIds: [flairland.id], accountOptions: { [flairland.id]: options } },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.results[0].errors.map((e: { code: string }) => e.code);
      };
      assert.deepEqual(await check({ title: 'T' }), ['flair_required']);
      assert.deepEqual(await check({ title: 'T', flairId: 'made-up' }), ['option_not_offered']);
      assert.deepEqual(await check({ title: 'T', flairId: 'f-news-0001' }), []);

      const now = await publishNow(client, {
        message: 'Posted from the Scheduler',
        accountIds: [flairland.id],
        accountOptions: { [flairland.id]: { title: 'Now', flairId: 'f-news-0001' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const posted = reddit.posts.find((p) => p.name === now.results[0].platformPostId);
      assert.deepEqual(
        [posted?.subreddit, posted?.flairId, posted?.text],
        ['flairland', 'f-news-0001', 'Posted from the Scheduler'],
      );

      const later = await scheduleAndDispatch(app, client, {
        message: 'https://example.com/launch',
        accountIds: [postwave.id],
        accountOptions: { [postwave.id]: { title: 'Scheduled link', spoiler: true } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      const link = reddit.posts.find((p) => p.name === later.results[0].platformPostId);
      assert.deepEqual([link?.kind, link?.url, link?.spoiler], ['link', 'https://example.com/launch', true]);
    });

    test('a revoked login fails the post and marks every subreddit of it needs_reconnect', async () => {
      const { client } = await signUp(app.url, 'reddit-revoked');
      const landing = await connectByOAuth(client, 'reddit');
      await pick(client, 'reddit', landing, ['postwave', 'textonly']);
      const accounts = await accountsOf(client, 'reddit');
      const postwave = accounts.find((a) => a.platformAccountId === 'postwave');
      reddit.revokeAll();
      const failed = await publishNow(client, {
        message: 'Will not go out',
        accountIds: [postwave.id],
        accountOptions: { [postwave.id]: { title: 'Revoked' } },
      });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      for (const account of accounts)
        assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
    });
  });
}
