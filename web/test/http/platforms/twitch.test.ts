import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTwitch, startFakeTwitch } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { signUp } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { accountsOf, connectByOAuth, publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';

/*
 * Twitch through the Scheduler over HTTP: "Connect Twitch" (OAuth against the fake) connects the
 * broadcaster; chat messages now and on schedule (the short-lived token refreshed first), a
 * dropped message failing with Twitch's reason, and a revoked login marking needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Twitch through the Scheduler (${backend})`, () => {
    let twitch: FakeTwitch;
    let app: RunningApp;
    before(async () => {
      twitch = await startFakeTwitch();
      app = await startApp(backend, twitch.env());
    });
    after(async () => {
      await app?.stop();
      await twitch?.close();
    });

    test('connect, chat now and scheduled, a dropped message, a revoked login', async () => {
      const { client } = await signUp(app.url, 'twitch');
      const landing = await connectByOAuth(client, 'twitch');
      assert.equal(landing.pathname, '/accounts', landing.toString());
      const [account] = await accountsOf(client, 'twitch');
      assert.equal(account.platformAccountId, twitch.user.id);
      assert.equal(account.label, 'AliceStreams');
      assert.ok(!JSON.stringify(account).match(/"tw[0-9a-f]{24}"/), 'no token in the answer');

      const now = await publishNow(client, { message: 'We are live!', accountIds: [account.id] });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      assert.equal(twitch.messages.at(-1)!.text, 'We are live!');
      assert.equal(now.results[0].platformPostId, twitch.messages.at(-1)!.id);

      twitch.accessTtlSec = 30;
      const refreshedBefore = twitch.refreshes;
      // Reconnecting stores a token inside the refresh margin: the scheduled send renews it first.
      await connectByOAuth(client, 'twitch');
      const later = await scheduleAndDispatch(app, client, {
        message: 'Scheduled hello',
        accountIds: [account.id],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(twitch.messages.at(-1)!.text, 'Scheduled hello');
      assert.ok(twitch.refreshes > refreshedBefore, 'the short-lived token was refreshed');

      twitch.dropNext = {
        code: 'msg_rejected_mandatory',
        message: 'Your message wasn’t posted due to conflicts with the channel’s moderation settings.',
      };
      const dropped = await publishNow(client, { message: 'Hmm', accountIds: [account.id] });
      assert.equal(dropped.status, 'failed');
      assert.equal(dropped.results[0].error.code, 'content_rejected');
      assert.match(dropped.results[0].error.message, /msg_rejected_mandatory/);

      twitch.revoke();
      const failed = await publishNow(client, { message: 'Will not go out', accountIds: [account.id] });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
    });
  });
}
