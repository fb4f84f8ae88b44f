import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  type FakeTelegram,
  type FakeThreads,
  startFakeTelegram,
  startFakeThreads,
} from '@postwave/shared/testing';
import { type HealthEffects, runHealthChecks } from '#server/accounts/health.ts';
import { notifyAccountHealth } from '#server/accounts/health-mail.ts';
import { getAccountRow, listAccounts } from '#server/accounts/list-accounts.ts';
import { saveAccount } from '#server/accounts/save-account.ts';
import type { AppContext } from '#server/context.ts';
import type { WebhookEvent } from '#server/webhooks/events.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type MailCapture, startMailCapture } from '../../helpers/mail-capture.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

const day = 24 * 60 * 60 * 1000;
const hour = 60 * 60 * 1000;
const botToken = '333333:HealthBotTokenHealthBotTokenHealth';

for (const backend of backends()) {
  describe(`account health checks (${backend})`, () => {
    let threads: FakeThreads;
    let telegram: FakeTelegram;
    const bots: Record<string, { username: string }> = {};
    let mail: MailCapture;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    const email = `health-${backend}@example.com`;
    let events: WebhookEvent[];
    let effects: HealthEffects;
    /** Each sweep runs a day later than the last, so every account is due again. */
    let clock = Date.now();
    const sweep = () => {
      clock += day;
      return runHealthChecks(ctx, { now: () => clock, effects });
    };

    before(async () => {
      threads = await startFakeThreads();
      telegram = await startFakeTelegram({
        bots,
        chats: {
          '@news': { id: -1001, title: 'News', username: 'news' },
          '@updates': { id: -1002, title: 'Updates', username: 'updates' },
        },
      });
      mail = await startMailCapture();
      harness = await startServices(
        backend,
        {
          ...threads.env(),
          TELEGRAM_API_URL: telegram.url,
          SMTP_URL: mail.url,
          ACCOUNT_HEALTH_INTERVAL_MS: String(hour),
        },
        2,
      );
      ctx = harness.ctx;
      workspaceId = (await signUpWithWorkspace(ctx, { email, password: 'long enough password' })).id;
    });
    after(async () => {
      await harness?.stop();
      await threads?.close();
      await telegram?.close();
      await mail?.close();
    });
    beforeEach(() => {
      events = [];
      effects = {
        emit: async (_db, event) => {
          events.push(event);
        },
        mail: notifyAccountHealth,
      };
    });

    async function connectThreads(platformAccountId: string, credentials: Record<string, unknown>) {
      const { account } = await saveAccount(ctx, workspaceId, {
        platform: 'threads',
        platformAccountId,
        credentials,
        profile: { name: threads.user.name },
      });
      return account.id;
    }
    const healthOf = async (id: string) => (await listAccounts(ctx, workspaceId)).find((a) => a.id === id)!;

    test('a working connection is ok, with the time of the check', async () => {
      const id = await connectThreads(
        threads.user.id,
        threads.credentials({ expiresInMs: 40 * day, withExpiry: true }),
      );
      const run = await sweep();
      assert.ok(run.checked >= 1);
      const account = await healthOf(id);
      assert.equal(account.health, 'ok');
      assert.equal(account.healthReason, undefined);
      assert.equal(account.healthCheckedAt, new Date(clock).toISOString());
    });

    test('a token near expiry that cannot be renewed is expiring, mailed once', async () => {
      // Issued just now: Threads renews long-lived tokens only once they are a day old.
      const id = await connectThreads(
        'expiring-profile',
        threads.credentials({ expiresInMs: 2 * day, withExpiry: true }),
      );
      await sweep();
      const account = await healthOf(id);
      assert.equal(account.health, 'expiring');
      assert.match(account.healthReason ?? '', /could not be renewed/);
      assert.equal(mail.to(email, 'expires soon').length, 1);
      assert.deepEqual(events, [], 'expiring is no webhook event');
      await sweep();
      assert.equal((await healthOf(id)).health, 'expiring');
      assert.equal(mail.to(email, 'expires soon').length, 1, 'not mailed again while it stays expiring');
    });

    test('credentials the platform starts refusing: needs_reconnect, one webhook event and one mail', async () => {
      bots[botToken] = { username: 'health_bot' };
      const { account: connected } = await saveAccount(ctx, workspaceId, {
        platform: 'telegram',
        platformAccountId: '@news',
        credentials: { botToken },
        label: 'News',
        profile: { name: 'News' },
      });
      await sweep();
      assert.equal((await healthOf(connected.id)).health, 'ok');

      delete bots[botToken]; // the bot was deleted in BotFather: Telegram answers 401
      await sweep();
      const account = await healthOf(connected.id);
      assert.equal(account.health, 'needs_reconnect');
      assert.equal(account.status, 'needs_reconnect');
      assert.match(account.healthReason ?? '', /refused/);
      const reconnect = events.filter((e) => e.type === 'account.needs_reconnect');
      assert.equal(reconnect.length, 1);
      assert.equal(reconnect[0]!.workspaceId, workspaceId);
      assert.deepEqual(reconnect[0]!.data, account);
      assert.equal(mail.to(email, 'Reconnect your Telegram account').length, 1);
      assert.ok(!JSON.stringify(reconnect[0]!.data).includes(botToken), 'no credentials in the event');

      await sweep();
      await sweep();
      assert.equal(events.length, 1, 'announced once per change, not per check');
      assert.equal(mail.to(email, 'Reconnect your Telegram account').length, 1);

      // Reconnecting makes it ok again.
      bots[botToken] = { username: 'health_bot' };
      await saveAccount(ctx, workspaceId, {
        platform: 'telegram',
        platformAccountId: '@news',
        credentials: { botToken },
        profile: { name: 'News' },
      });
      assert.equal((await healthOf(connected.id)).health, 'ok');
      assert.equal((await healthOf(connected.id)).status, 'active');
    });

    test('a platform that cannot be reached is unreachable; it recovers on its own', async () => {
      const token = '444444:UnreachableBotTokenUnreachableBot';
      bots[token] = { username: 'unreachable_bot' };
      const { account: connected } = await saveAccount(ctx, workspaceId, {
        platform: 'telegram',
        platformAccountId: '@updates',
        credentials: { botToken: token },
        profile: { name: 'News' },
      });
      telegram.injectServerError(502, { times: 100 });
      await sweep();
      const account = await healthOf(connected.id);
      assert.equal(account.health, 'unreachable');
      assert.equal(account.status, 'active', 'still swept: unreachable is not the credentials');
      assert.deepEqual(events, []);
      telegram.clearInjected();
      await sweep();
      assert.equal((await healthOf(connected.id)).health, 'ok');
    });

    test('instances sweeping at once check every account exactly once', async () => {
      const ids = [];
      for (let i = 0; i < 6; i++) {
        ids.push(
          await connectThreads(
            `lease-${i}`,
            threads.credentials({ expiresInMs: 40 * day, withExpiry: true }),
          ),
        );
      }
      const rowsBefore = await Promise.all(ids.map((id) => getAccountRow(ctx, workspaceId, id)));
      assert.ok(rowsBefore.every((r) => r?.healthCheckedAt));
      const meBefore = threads.requestsTo('GET', /\/me$/).length;
      clock += day;
      const runs = await Promise.all(
        harness.contexts.flatMap((c) => [
          runHealthChecks(c, { now: () => clock, effects }),
          runHealthChecks(c, { now: () => clock, effects }),
        ]),
      );
      const checked = runs.reduce((n, r) => n + r.checked, 0);
      const me = threads.requestsTo('GET', /\/me$/).length - meBefore;
      const threadsAccounts = (await listAccounts(ctx, workspaceId)).filter(
        (a) => a.platform === 'threads' && a.status === 'active',
      ).length;
      assert.equal(me, threadsAccounts, 'one verification per Threads account');
      assert.ok(checked >= threadsAccounts);
    });
  });
}
