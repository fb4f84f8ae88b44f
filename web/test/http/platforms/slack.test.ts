import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeSlack, startFakeSlack } from '@postwave/shared/testing';
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
 * Slack through the Scheduler over HTTP: "Add to Slack" (OAuth v2 against the fake), the picker
 * offering the channels the app is in, publishing now and on schedule, and a revoked install
 * marking its channel needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Slack through the Scheduler (${backend})`, () => {
    let slack: FakeSlack;
    let app: RunningApp;
    before(async () => {
      slack = await startFakeSlack();
      app = await startApp(backend, slack.env());
    });
    after(async () => {
      await app?.stop();
      await slack?.close();
    });

    test('install, pick channels, publish now and scheduled', async () => {
      const { client } = await signUp(app.url, 'slack');
      const landing = await connectByOAuth(client, 'slack');
      const { html, ids } = await pickerChoices(client, landing);
      assert.deepEqual(ids.sort(), ['C0GENERAL1', 'G0SECRET01']);
      assert.match(html, /#general/);
      assert.match(html, /#secret-plans/);
      assert.doesNotMatch(
        html,
        /#random|#old-stuff/,
        'channels the app is not in, or archived, are not offered',
      );
      assert.doesNotMatch(html, /xoxb-/, 'no token on the page');
      const done = await pick(client, 'slack', landing, ids);
      assert.equal(done.pathname, '/accounts');
      const accounts = await accountsOf(client, 'slack');
      assert.deepEqual(accounts.map((a) => a.platformAccountId).sort(), ['C0GENERAL1', 'G0SECRET01']);
      const general = accounts.find((a) => a.platformAccountId === 'C0GENERAL1');
      assert.equal(general.label, '#general');
      assert.ok(!JSON.stringify(accounts).includes('xoxb-'));

      const now = await publishNow(client, { message: 'Release <v2> & notes', accountIds: [general.id] });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const sent = slack.messages.find((m) => m.ts === now.results[0].platformPostId);
      assert.equal(sent?.text, 'Release &lt;v2&gt; &amp; notes');
      assert.equal(sent?.channel, 'C0GENERAL1');

      const later = await scheduleAndDispatch(app, client, {
        message: 'Scheduled to Slack',
        accountIds: [general.id],
        accountOptions: { [general.id]: { mrkdwn: true } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      const scheduled = slack.messages.find((m) => m.ts === later.results[0].platformPostId);
      assert.equal(scheduled?.text, 'Scheduled to Slack');
      assert.equal(scheduled?.mrkdwn, 'true');
    });

    test('a revoked install fails the post and marks the account needs_reconnect', async () => {
      const { client } = await signUp(app.url, 'slack-revoked');
      const landing = await connectByOAuth(client, 'slack');
      await pick(client, 'slack', landing, ['C0GENERAL1']);
      const [account] = await accountsOf(client, 'slack');
      slack.revokeAllTokens();
      const failed = await publishNow(client, { message: 'Will not go out', accountIds: [account.id] });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      // Contract section F: every error in an answer carries a hint in plain words.
      assert.match(failed.results[0].error.hint, /reconnect the account/);
      assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
    });
  });
}
