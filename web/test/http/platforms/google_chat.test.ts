import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeGoogleChat, startFakeGoogleChat } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { userWithToken } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { connectAccount, hostOf, publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';

/*
 * Google Chat through the Scheduler over HTTP: the webhook URL names its space (the account's
 * platformAccountId), its host goes through the SSRF rules, and its key and token never come back.
 */
for (const backend of backends()) {
  describe(`Google Chat through the Scheduler (${backend})`, () => {
    let chat: FakeGoogleChat;
    let unlisted: FakeGoogleChat;
    let app: RunningApp;
    before(async () => {
      [chat, unlisted] = await Promise.all([startFakeGoogleChat(), startFakeGoogleChat()]);
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: hostOf(chat.url) });
    });
    after(async () => {
      await app?.stop();
      await Promise.all([chat?.close(), unlisted?.close()]);
    });

    test('a private host not allowed is refused, nothing sent', async () => {
      const { api } = await userWithToken(app.url, 'chat-refused');
      const refused = await connectAccount(api, 'google_chat', { webhookUrl: unlisted.webhookUrl() });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'target_unreachable');
      assert.equal(unlisted.server.requests.length, 0);
    });

    test('connect (the space from the URL), publish now into a thread, and scheduled', async () => {
      const { api } = await userWithToken(app.url, 'chat');
      const connected = await connectAccount(api, 'google_chat', { webhookUrl: chat.webhookUrl() });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      assert.equal(connected.body.platformAccountId, chat.webhook.space);
      assert.ok(!JSON.stringify(connected.body).includes(chat.webhook.token));

      const now = await publishNow(api, {
        message: '*Deployed* to production',
        accountIds: [connected.body.id],
        thread: [{ message: 'Details in the runbook' }],
        accountOptions: { [connected.body.id]: { threadKey: 'deploys' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const [first, second] = chat.messages;
      assert.equal(first?.text, '*Deployed* to production');
      assert.equal(second?.thread, first?.thread);
      assert.equal(now.results[0].platformPostId, first?.name);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Scheduled chat',
        accountIds: [connected.body.id],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.equal(chat.messages.at(-1)?.text, 'Scheduled chat');
      assert.ok(!JSON.stringify(later).includes(chat.webhook.token));
    });
  });
}
