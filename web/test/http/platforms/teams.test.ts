import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTeams, startFakeTeams } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { userWithToken } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { connectAccount, hostOf, publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';

/*
 * Microsoft Teams through the Scheduler over HTTP: the webhook URL is user-chosen, so connecting
 * checks its shape and its host (SSRF rules) without posting; the URL never comes back.
 */
for (const backend of backends()) {
  describe(`Microsoft Teams through the Scheduler (${backend})`, () => {
    let teams: FakeTeams;
    let unlisted: FakeTeams;
    let app: RunningApp;
    before(async () => {
      [teams, unlisted] = await Promise.all([startFakeTeams(), startFakeTeams()]);
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: hostOf(teams.url) });
    });
    after(async () => {
      await app?.stop();
      await Promise.all([teams?.close(), unlisted?.close()]);
    });

    test('a malformed URL and a private host not allowed are refused before anything is sent', async () => {
      const { api } = await userWithToken(app.url, 'teams-refused');
      const malformed = await connectAccount(
        api,
        'teams',
        { webhookUrl: 'https://example.com/hook' },
        'General',
      );
      assert.equal(malformed.status, 422);
      assert.equal(malformed.body.code, 'credentials_invalid');
      const privateHost = await connectAccount(
        api,
        'teams',
        { webhookUrl: unlisted.webhookUrl() },
        'General',
      );
      assert.equal(privateHost.status, 422, JSON.stringify(privateHost.body));
      assert.equal(privateHost.body.code, 'target_unreachable');
      assert.ok(!JSON.stringify(privateHost.body).includes(unlisted.workflow.sig));
      assert.equal(unlisted.server.requests.length, 0);
    });

    test('connect with a channel label, publish a card now and scheduled', async () => {
      const { api } = await userWithToken(app.url, 'teams');
      const connected = await connectAccount(
        api,
        'teams',
        { webhookUrl: teams.webhookUrl() },
        'Marketing › General',
      );
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      assert.equal(connected.body.platformAccountId, 'Marketing › General');
      assert.equal(connected.body.label, 'Marketing › General');
      assert.equal(teams.server.requests.length, 0, 'connecting posts nothing');
      const listed = await api.json('/api/v1/accounts');
      assert.ok(!JSON.stringify(listed.body).includes(teams.workflow.sig));

      const now = await publishNow(api, {
        message: 'Quarterly numbers',
        accountIds: [connected.body.id],
        accountOptions: { [connected.body.id]: { title: 'Finance' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      assert.deepEqual(
        (teams.messages[0]!.card.body as { text?: string }[]).map((b) => b.text),
        ['Finance', 'Quarterly numbers'],
      );
      assert.ok(!JSON.stringify(now).includes(teams.workflow.sig));

      const later = await scheduleAndDispatch(app, api, {
        message: 'Scheduled card',
        accountIds: [connected.body.id],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(teams.messages.length, 2);

      const tooBig = await api.json('/api/v1/posts', {
        json: { message: 'a'.repeat(30_000), accountIds: [connected.body.id], postingMode: 'now' },
      });
      assert.equal(tooBig.status, 422);
      assert.equal(teams.invocations().length, 2, 'a card over 28 KB is never sent');
    });
  });
}
