import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { listAudit } from '#server/audit/list-audit.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { apiTokens, auditEntries } from '#server/db/schema.ts';
import { createToken, revokeToken } from '#server/tokens/service.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

class Rollback extends Error {}

/**
 * Audit entries are written in the transaction of the change they describe
 * (docs/workspaces.md#audit-log): a change rolled back leaves no entry, a committed one has its
 * entry, and an entry never commits without its change.
 */
for (const backend of backends()) {
  describe(`audit entries share the change's transaction (${backend})`, () => {
    let harness: ServiceHarness;
    let ctx: AppContext;
    let user: Awaited<ReturnType<typeof signUpWithWorkspace>>;
    const entries = async () =>
      (await listAudit(ctx, user.workspaceId, { limit: 200 })).entries.filter((e) =>
        e.action.startsWith('token.'),
      );

    before(async () => {
      harness = await startServices(backend, {});
      ctx = harness.ctx;
      user = await signUpWithWorkspace(ctx, {
        email: `audit-${backend}@example.com`,
        password: 'a long password 1',
      });
    });
    after(() => harness?.stop());

    test('a token created in a transaction that rolls back leaves neither the token nor its entry', async () => {
      let createdId = '';
      await assert.rejects(
        inTransaction(ctx, async (tx) => {
          const created = await createToken({ ...ctx, db: tx.db }, user.userId, {
            name: 'doomed',
            workspaceId: user.workspaceId,
          });
          createdId = created.id;
          // Inside the transaction the entry is there, beside the token…
          const inside = await tx.db.select().from(auditEntries).where(eq(auditEntries.targetId, created.id));
          assert.equal(inside.length, 1);
          throw new Rollback();
        }),
        Rollback,
      );
      // …and after the rollback neither is.
      assert.ok(createdId);
      assert.deepEqual(await ctx.db.select().from(apiTokens).where(eq(apiTokens.id, createdId)), []);
      assert.deepEqual(
        await ctx.db.select().from(auditEntries).where(eq(auditEntries.targetId, createdId)),
        [],
      );
      assert.deepEqual(await entries(), []);
    });

    test('a committed change has exactly its entry, with actor, target and details (no secret)', async () => {
      const created = await createToken(ctx, user.userId, { name: 'kept', workspaceId: user.workspaceId });
      await revokeToken(ctx, user.userId, user.workspaceId, created.id);
      const [revoked, made] = await entries();
      assert.equal(made?.action, 'token.created');
      assert.equal(revoked?.action, 'token.revoked');
      for (const entry of [made!, revoked!]) {
        assert.deepEqual(entry.actor, { type: 'member', id: user.userId, name: user.email });
        assert.deepEqual(entry.target, { type: 'token', id: created.id });
        assert.deepEqual(entry.details, { name: 'kept', kind: 'personal' });
        assert.ok(!JSON.stringify(entry).includes(created.token));
      }
    });

    test('a revocation refused (unknown token) writes nothing', async () => {
      const before = (await entries()).length;
      await assert.rejects(revokeToken(ctx, user.userId, user.workspaceId, crypto.randomUUID()));
      assert.equal((await entries()).length, before);
    });

    test('an entry written in a transaction that fails later is rolled back with it', async () => {
      await assert.rejects(
        inTransaction(ctx, async (tx) => {
          await recordAudit(tx, {
            workspaceId: user.workspaceId,
            actor: { type: 'system', name: 'Postwave' },
            action: 'webhook.created',
            target: { type: 'webhook', id: 'never' },
          });
          throw new Rollback();
        }),
        Rollback,
      );
      assert.deepEqual(
        await ctx.db.select().from(auditEntries).where(eq(auditEntries.targetId, 'never')),
        [],
      );
    });
  });
}
