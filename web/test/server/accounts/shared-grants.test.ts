import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { platformModules } from '@postwave/shared';
import { startWebhookReceiver, type WebhookReceiver } from '@postwave/shared/testing';
import { eq } from 'drizzle-orm';
import { refreshExpiringConnections } from '#server/accounts/credential-keeper.ts';
import { saveRefreshedCredentials, toPlatformAccount } from '#server/accounts/credentials.ts';
import { disconnectAccount } from '#server/accounts/disconnect-account.ts';
import { markAccountRefused } from '#server/accounts/health.ts';
import { getAccountRow } from '#server/accounts/list-accounts.ts';
import { finishConnect, startConnect } from '#server/accounts/oauth-connect.ts';
import { pickAccounts } from '#server/accounts/oauth-picker.ts';
import type { AppContext } from '#server/context.ts';
import { accountGrants, accounts, webhookDeliveries } from '#server/db/schema.ts';
import { createPost } from '#server/posts/create-post.ts';
import { createWebhook } from '#server/webhooks/service.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import {
  type FakeLogin,
  loginPlatformId,
  loginPlatformModule,
  startFakeLogin,
} from '../../helpers/login-platform.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * Shared grants (contract section C): the accounts one login connected share one stored grant, so
 * a refresh token the platform rotates on every use keeps serving all of them, and a revoked login
 * marks all of them needs_reconnect. A test-only platform whose refresh tokens are single use.
 */
for (const backend of backends()) {
  describe(`shared grants (${backend})`, () => {
    let fake: FakeLogin;
    let receiver: WebhookReceiver;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let spaceA: string;
    let spaceB: string;

    before(async () => {
      fake = await startFakeLogin({ accessTtlSec: 0 });
      receiver = await startWebhookReceiver();
      harness = await startServices(backend, { ALLOW_PRIVATE_HOSTS: new URL(receiver.url).host }, 1, {
        platforms: [...platformModules, loginPlatformModule(fake)],
      });
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `grants-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      await createWebhook(ctx, workspaceId, { url: receiver.url, events: ['account.needs_reconnect'] });
    });
    after(async () => {
      await harness?.stop();
      await fake?.close();
      await receiver?.close();
    });

    /** The browser's round trip: our start → the platform's consent (approves at once) → our callback. */
    async function consent(accountId?: string) {
      const url = await startConnect(ctx, workspaceId, loginPlatformId, accountId ? { accountId } : {});
      const approved = await fetch(url, { redirect: 'manual' });
      assert.equal(approved.status, 302);
      const callback = new URL(approved.headers.get('location')!);
      return finishConnect(ctx, workspaceId, loginPlatformId, callback.searchParams);
    }

    const rowsOf = () => ctx.db.select().from(accounts).where(eq(accounts.workspaceId, workspaceId));
    const grants = () =>
      ctx.db.select().from(accountGrants).where(eq(accountGrants.workspaceId, workspaceId));
    const publish = (accountId: string, message: string) =>
      createPost(ctx, workspaceId, {
        message,
        accountIds: [accountId],
        postingMode: 'now',
        media: [],
        accountOptions: {},
      });
    const reconnectEvents = async () =>
      (
        await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.workspaceId, workspaceId))
      ).filter((d) => d.eventType === 'account.needs_reconnect').length;

    test('the accounts one login connected store its credentials once', async () => {
      const outcome = await consent();
      assert.equal(outcome.kind, 'pick');
      const saved = await pickAccounts(
        ctx,
        workspaceId,
        loginPlatformId,
        outcome.kind === 'pick' ? outcome.token : '',
        ['space-a', 'space-b'],
      );
      [spaceA, spaceB] = saved.map((a) => a.id) as [string, string];
      const rows = await rowsOf();
      assert.equal(rows.length, 2);
      const [grant, ...more] = await grants();
      assert.ok(grant);
      assert.equal(more.length, 0);
      assert.equal(grant.grantKey, 'user-1');
      for (const row of rows) {
        assert.equal(row.grantId, grant.id);
        assert.equal(row.credentials, null, 'no copy on the account');
      }
      assert.doesNotMatch(grant.credentials, /rt-|at-/, 'encrypted');
    });

    test('a refresh token rotated by one account serves the other', async () => {
      const before = fake.refreshes;
      const first = await publish(spaceA, 'to A');
      assert.equal(first.status, 'posted', JSON.stringify(first.results));
      const second = await publish(spaceB, 'to B');
      assert.equal(second.status, 'posted', JSON.stringify(second.results));
      assert.equal(fake.refreshes, before + 2, 'each publish refreshed, with the token the other left');
      assert.deepEqual(
        fake.posts.slice(-2).map((p) => [p.space, p.text]),
        [
          ['space-a', 'to A'],
          ['space-b', 'to B'],
        ],
      );
      const rowA = await getAccountRow(ctx, workspaceId, spaceA);
      const rowB = await getAccountRow(ctx, workspaceId, spaceB);
      assert.deepEqual(
        (await toPlatformAccount(ctx, rowA!)).credentials,
        (await toPlatformAccount(ctx, rowB!)).credentials,
      );
      assert.deepEqual(
        (await rowsOf()).map((r) => r.status),
        ['active', 'active'],
      );
    });

    test('a refusal of credentials another account has since rotated marks nothing', async () => {
      // A publish that read the grant before a sibling rotated it is refused; the login still works.
      await markAccountRefused(ctx, spaceA, loginPlatformId);
      assert.deepEqual(
        (await rowsOf()).map((r) => r.status),
        ['active', 'active'],
      );
      assert.equal(await reconnectEvents(), 0);
    });

    test('the keeper renews a login once, whatever number of accounts it connected', async () => {
      // Stored tokens that expire in a day: in the keeper's window, not yet the publisher's.
      fake.accessTtlSec = 3600;
      const row = await getAccountRow(ctx, workspaceId, spaceA);
      const current = (await toPlatformAccount(ctx, row!)).credentials;
      await saveRefreshedCredentials(ctx, spaceB, {
        ...current,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      const run = await refreshExpiringConnections(ctx);
      assert.equal(run.checked, 1);
      fake.accessTtlSec = 0;
    });

    test('a revoked login marks every account of it needs_reconnect, one event each', async () => {
      fake.revoke();
      const refused = await publish(spaceA, 'after revoke');
      assert.equal(refused.status, 'failed');
      assert.equal(refused.results[0]!.error?.code, 'needs_reconnect');
      assert.deepEqual(
        (await rowsOf()).map((r) => [r.status, r.health]),
        [
          ['needs_reconnect', 'needs_reconnect'],
          ['needs_reconnect', 'needs_reconnect'],
        ],
      );
      assert.equal(await reconnectEvents(), 2);
    });

    test('reconnecting the login renews the grant for every account it reaches', async () => {
      const outcome = await consent(spaceA);
      assert.equal(outcome.kind, 'connected');
      assert.deepEqual(outcome.kind === 'connected' ? outcome.accounts.map((a) => a.id) : [], [spaceA]);
      assert.deepEqual(
        (await rowsOf()).map((r) => r.status),
        ['active', 'active'],
      );
      assert.equal((await grants()).length, 1);
      const again = await publish(spaceB, 'B after reconnect');
      assert.equal(again.status, 'posted', JSON.stringify(again.results));
    });

    test('the grant goes with the last account that uses it', async () => {
      await disconnectAccount(ctx, workspaceId, spaceA);
      assert.equal((await grants()).length, 1);
      assert.equal((await publish(spaceB, 'B alone')).status, 'posted');
      await disconnectAccount(ctx, workspaceId, spaceB);
      assert.equal((await grants()).length, 0);
    });
  });
}
