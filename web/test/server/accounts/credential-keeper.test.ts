import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeThreads, startFakeThreads } from '@postwave/shared/testing';
import { refreshExpiringConnections } from '#server/accounts/credential-keeper.ts';
import { toPlatformAccount } from '#server/accounts/credentials.ts';
import { getAccountRow } from '#server/accounts/list-accounts.ts';
import { saveAccount } from '#server/accounts/save-account.ts';
import type { AppContext } from '#server/context.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

const day = 24 * 60 * 60 * 1000;

for (const backend of backends()) {
  describe(`renewing idle connections ahead of expiry (${backend})`, () => {
    let threads: FakeThreads;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;

    before(async () => {
      threads = await startFakeThreads();
      harness = await startServices(backend, threads.env());
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `keeper-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
    });
    after(async () => {
      await harness?.stop();
      await threads?.close();
    });

    /** Saved as stored weeks ago (connecting now would renew it on the spot). */
    async function connect(expiresInMs: number, platformAccountId = threads.user.id) {
      const { account } = await saveAccount(ctx, workspaceId, {
        platform: 'threads',
        platformAccountId,
        credentials: threads.credentials({ expiresInMs, ageMs: 2 * day, withExpiry: true }),
        profile: { name: threads.user.name },
      });
      return account.id;
    }

    async function credentialsOf(accountId: string) {
      const row = await getAccountRow(ctx, workspaceId, accountId);
      return { status: row!.status, credentials: (await toPlatformAccount(ctx, row!)).credentials };
    }

    test('a token in its last week is renewed and stored; one far from expiry is left alone', async () => {
      const expiring = await connect(3 * day);
      const later = await connect(30 * day, 'another-profile');
      const untouched = await credentialsOf(later);
      const before = await credentialsOf(expiring);
      const run = await refreshExpiringConnections(ctx);
      assert.deepEqual(run, { checked: 1, refreshed: 1, needsReconnect: 0 });
      const after = await credentialsOf(expiring);
      assert.notEqual(after.credentials.accessToken, before.credentials.accessToken);
      assert.ok(Date.parse(String(after.credentials.expiresAt)) > Date.now() + 50 * day);
      assert.equal(after.status, 'active');
      assert.deepEqual(await credentialsOf(later), untouched);
      // Renewed: the next sweep has nothing to do.
      assert.deepEqual(await refreshExpiringConnections(ctx), {
        checked: 0,
        refreshed: 0,
        needsReconnect: 0,
      });
    });

    test('a renewal the platform refuses marks the account needs_reconnect', async () => {
      const doomed = await connect(2 * day);
      threads.revokeTokens();
      const run = await refreshExpiringConnections(ctx);
      assert.equal(run.needsReconnect, 1);
      assert.equal((await credentialsOf(doomed)).status, 'needs_reconnect');
      // Accounts that need reconnecting are not swept again.
      assert.equal((await refreshExpiringConnections(ctx)).checked, 0);
    });
  });
}
