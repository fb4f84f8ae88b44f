import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import type { AppContext } from '#server/context.ts';
import { posts } from '#server/db/schema.ts';
import { type DispatchOptions, dispatchDuePosts } from '#server/dispatch/service.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

const options: DispatchOptions = {
  batchSize: 50,
  concurrency: 8,
  timeBudgetMs: 60_000,
  leaseMs: 300_000,
  maxAttempts: 3,
  retryBaseMs: 1,
};

/**
 * Recycling under several dispatchers on separate pools (as separate instances): each finished post
 * gets exactly one next copy, made in the transaction of its outcome (docs/recycling.md).
 */
for (const backend of backends()) {
  describe(`recycling under concurrent dispatchers (${backend})`, () => {
    let telegram: FakeTelegram;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let news: string;

    before(async () => {
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News' } },
      });
      harness = await startServices(backend, { TELEGRAM_API_URL: telegram.url }, 3);
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `recycle-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      news = (
        await connectAccount(ctx, workspaceId, {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
        })
      ).account.id;
    });
    after(async () => {
      await harness?.stop();
      await telegram?.close();
    });

    const dispatchEverywhere = () =>
      Promise.all(
        [0, 1, 2, 3].map((i) =>
          dispatchDuePosts(harness.contexts[i % harness.contexts.length]!, {
            ...options,
            owner: `recycler-${i}`,
          }),
        ),
      );
    const copiesOf = (ids: string[]) =>
      ctx.db
        .select({ id: posts.id, from: posts.recycledFrom, index: posts.recycleIndex, status: posts.status })
        .from(posts)
        .where(and(isNotNull(posts.recycledFrom), inArray(posts.recycledFrom, ids)));

    test('40 due recycled posts and 4 dispatchers: one copy each, then one next copy each', async () => {
      const now = Date.now();
      const rows = Array.from({ length: 40 }, (_, i) => ({
        id: crypto.randomUUID(),
        workspaceId,
        status: 'scheduled' as const,
        message: `evergreen ${i}`,
        accountIds: [news],
        media: [],
        accountOptions: {},
        scheduledAt: new Date(now - 1000),
        nextAttemptAt: new Date(now - 1000),
        createdAt: new Date(now + i),
        updatedAt: new Date(now + i),
        recycle: { intervalDays: 7, maxTimes: 3, jitterMinutes: 240 },
      }));
      await ctx.db.insert(posts).values(rows);
      const ids = rows.map((r) => r.id);
      await dispatchEverywhere();
      const first = await copiesOf(ids);
      assert.equal(first.length, 40);
      assert.deepEqual(new Set(first.map((c) => c.from)), new Set(ids));
      assert.ok(first.every((c) => c.index === 1 && c.status === 'scheduled'));

      // Every copy due now: the next round makes exactly one copy 2 per original.
      await ctx.db
        .update(posts)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(
          inArray(
            posts.id,
            first.map((c) => c.id),
          ),
        );
      await dispatchEverywhere();
      const second = await copiesOf(ids);
      assert.equal(second.length, 80);
      for (const id of ids) {
        assert.deepEqual(
          second
            .filter((c) => c.from === id)
            .map((c) => c.index)
            .sort(),
          [1, 2],
        );
      }
      for (let i = 0; i < 40; i++)
        assert.equal(telegram.sent.filter((m) => m.text === `evergreen ${i}`).length, 2);
    });

    test('a post finished a second time (failed, then posted by a retry) adds no second copy', async () => {
      const id = crypto.randomUUID();
      const at = new Date();
      await ctx.db.insert(posts).values({
        id,
        workspaceId,
        status: 'scheduled',
        message: 'finished twice',
        accountIds: [news],
        media: [],
        accountOptions: {},
        scheduledAt: at,
        nextAttemptAt: new Date(Date.now() - 1000),
        createdAt: at,
        updatedAt: at,
        recycle: { intervalDays: 7, maxTimes: 3, jitterMinutes: 0 },
      });
      await dispatchEverywhere();
      assert.equal((await copiesOf([id])).length, 1);
      await ctx.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, id));
      await ctx.db.update(posts).set({ status: 'posted' }).where(eq(posts.id, id));
      assert.equal((await copiesOf([id])).length, 1);
      // The unique index is the last guard: a second copy 1 is refused outright.
      await assert.rejects(
        ctx.db.execute(sql`
          INSERT INTO posts (id, workspace_id, status, message, account_ids, media, account_options,
            created_at, updated_at, recycled_from, recycle_index)
          VALUES (gen_random_uuid(), ${workspaceId}::uuid, 'scheduled', 'x', '[]', '[]', '{}', now(), now(), ${id}::uuid, 1)`),
      );
    });
  });
}
