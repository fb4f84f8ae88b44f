import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type FakeTelegram,
  startFakeTelegram,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@postwave/shared/testing';
import { dispatchSecret, type RunningApp, startApp } from './helpers/app.ts';
import { userWithToken } from './helpers/client.ts';
import { backends } from './helpers/databases.ts';

/**
 * End to end over real HTTP: account health, webhooks and the dispatcher together. A
 * platform that starts refusing an account's credentials flips it to `needs_reconnect`, which a
 * subscribed endpoint hears once (verified with `standardwebhooks` by the local receiver), and
 * the post scheduled to it is flagged. A thread published by the dispatcher sends
 * `post.published` with each part in the results.
 */

const tokens = {
  revoked: '777777:TransferRevokedBotTokenTransferRevo',
  working: '888888:TransferWorkingBotTokenTransferWork',
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

type Payload = { type: string; data: Record<string, unknown> };

for (const backend of backends()) {
  describe(`account health, webhooks and dispatch together (${backend})`, () => {
    const bots: Record<string, { username: string }> = {
      [tokens.revoked]: { username: 'transfer_revoked_bot' },
      [tokens.working]: { username: 'transfer_working_bot' },
    };
    let telegram: FakeTelegram;
    let receiver: WebhookReceiver;
    let app: RunningApp;

    before(async () => {
      telegram = await startFakeTelegram({
        bots,
        chats: {
          '@news': { id: -1001, title: 'News', username: 'news' },
          '@updates': { id: -1002, title: 'Updates', username: 'updates' },
        },
      });
      receiver = await startWebhookReceiver();
      app = await startApp(backend, {
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host,
        // Every account is due again a second after its last check.
        ACCOUNT_HEALTH_INTERVAL_MS: '1000',
      });
    });
    after(async () => {
      await app?.stop();
      await telegram?.close();
      await receiver?.close();
    });

    const received = (type: string) =>
      receiver.received.filter((r) => (r.payload as Payload).type === type && r.verifiedWith.length === 1);

    test('credentials refused → needs_reconnect → one account.needs_reconnect webhook; the scheduled post is flagged', async () => {
      const { api, session } = await userWithToken(app.url, 'health-hooks');
      const hook = await api.json('/api/v1/webhooks', {
        json: { url: receiver.url, events: ['account.needs_reconnect', 'post.published'] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      receiver.secrets = [hook.body.secret];
      const connected = await api.json('/api/v1/accounts', {
        json: { platform: 'telegram', platformAccountId: '@news', credentials: { botToken: tokens.revoked } },
      });
      assert.equal(connected.status, 201);
      assert.equal(connected.body.health, 'ok');
      const id = connected.body.id as string;
      const scheduled = await api.json('/api/v1/posts', {
        json: {
          message: 'Going out next week',
          accountIds: [id],
          postingMode: 'schedule',
          scheduledAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        },
      });
      assert.equal(scheduled.status, 201);

      delete bots[tokens.revoked]; // the bot was deleted: Telegram answers 401
      const account = await until('needs_reconnect', async () => {
        const { body } = await api.json(`/api/v1/accounts/${id}`);
        return body.health === 'needs_reconnect' ? body : undefined;
      });
      assert.match(account.healthReason, /refused/);

      await until('the webhook', async () => (received('account.needs_reconnect').length ? true : undefined));
      await new Promise((r) => setTimeout(r, 3500)); // three more health checks: still one event
      const events = received('account.needs_reconnect');
      assert.equal(events.length, 1, JSON.stringify(receiver.received.map((r) => r.payload)));
      const payload = events[0]!.payload as Payload;
      assert.equal((payload.data as { id: string }).id, id);
      assert.equal((payload.data as { health: string }).health, 'needs_reconnect');
      assert.equal(JSON.stringify(payload).includes(tokens.revoked), false, 'no credentials in webhooks');

      // Flagged before its time: in the post view and the list, and the account says why.
      const page = await (await session.fetch(`/posts/${scheduled.body.id}`)).text();
      assert.match(page, /data-testid="accounts-at-risk"/);
      assert.match(await (await session.fetch('/posts')).text(), /data-testid="post-at-risk"/);
      assert.equal((await api.json(`/api/v1/posts/${scheduled.body.id}`)).body.status, 'scheduled');
    });

    test('a thread published by the dispatcher sends post.published with every part', async () => {
      const { api } = await userWithToken(app.url, 'thread-hooks');
      const hook = await api.json('/api/v1/webhooks', {
        json: { url: receiver.url, events: ['post.published'] },
      });
      receiver.secrets = [hook.body.secret];
      const account = await api.json('/api/v1/accounts', {
        json: {
          platform: 'telegram',
          platformAccountId: '@updates',
          credentials: { botToken: tokens.working },
        },
      });
      assert.equal(account.status, 201);
      const post = await api.json('/api/v1/posts', {
        json: {
          message: 'Thread start',
          accountIds: [account.body.id],
          postingMode: 'schedule',
          scheduledAt: new Date(Date.now() + 1500).toISOString(),
          thread: [{ message: 'Thread two' }, { message: 'Thread three' }],
        },
      });
      assert.equal(post.status, 201, JSON.stringify(post.body));
      await new Promise((r) => setTimeout(r, 1600));
      const res = await fetch(`${app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(res.status, 200);
      const published = await until('post.published', async () =>
        received('post.published').find((r) => (r.payload as Payload).data.id === post.body.id),
      );
      const data = (published.payload as Payload).data as {
        status: string;
        results: { status: string; parts: { index: number; status: string; platformPostId?: string }[] }[];
      };
      assert.equal(data.status, 'posted');
      assert.deepEqual(
        data.results[0]!.parts.map((p) => [p.index, p.status, typeof p.platformPostId]),
        [
          [0, 'posted', 'string'],
          [1, 'posted', 'string'],
          [2, 'posted', 'string'],
        ],
      );
      assert.equal(
        received('post.published').filter((r) => (r.payload as Payload).data.id === post.body.id).length,
        1,
      );
    });
  });
}
