import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { eq, sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import { posts } from '#server/db/schema.ts';
import { type DispatchOptions, dispatchDuePosts } from '#server/dispatch/service.ts';
import { claimDuePosts } from '#server/posts/repository.ts';
import { getPost } from '#server/posts/service.ts';
import { signUp } from '#server/users/service.ts';
import { backends } from '../helpers/databases.ts';
import { bots } from '../helpers/fixtures.ts';
import { type ServiceHarness, startServices } from '../helpers/service-context.ts';

const options: DispatchOptions = {
  batchSize: 50,
  concurrency: 16,
  timeBudgetMs: 60_000,
  leaseMs: 300_000,
  maxAttempts: 3,
  retryBaseMs: 1,
};

for (const backend of backends()) {
  describe(`dispatch (${backend})`, () => {
    let telegram: FakeTelegram;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let userId: string;
    let news: string;
    let updates: string;

    before(async () => {
      telegram = await startFakeTelegram({
        bots: {
          [bots.main.token]: { username: bots.main.username },
          [bots.second.token]: { username: bots.second.username },
        },
        chats: { '@news': { id: -1001, title: 'News' }, '@updates': { id: -1002, title: 'Updates' } },
      });
      harness = await startServices(backend, { TELEGRAM_API_URL: telegram.url }, 4);
      ctx = harness.ctx;
      const user = await signUp(ctx, {
        email: `dispatch-${backend}@example.com`,
        password: 'long enough password',
      });
      userId = user.id;
      news = (
        await connectAccount(ctx, userId, {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
        })
      ).account.id;
      updates = (
        await connectAccount(ctx, userId, {
          platform: 'telegram',
          platformAccountId: '@updates',
          credentials: { botToken: bots.second.token },
        })
      ).account.id;
    });
    after(async () => {
      await harness?.stop();
      await telegram?.close();
    });

    /** Inserts due scheduled posts directly (scheduling through the API refuses past times). */
    async function insertDuePosts(
      count: number,
      prefix: string,
      accountIds = [news, updates],
    ): Promise<string[]> {
      const now = Date.now();
      const rows = Array.from({ length: count }, (_, i) => ({
        id: crypto.randomUUID(),
        userId,
        status: 'scheduled' as const,
        message: `${prefix} ${i}`,
        accountIds,
        media: [],
        accountOptions: {},
        scheduledAt: new Date(now - 1000),
        nextAttemptAt: new Date(now - 1000),
        createdAt: new Date(now + i),
        updatedAt: new Date(now + i),
      }));
      for (let i = 0; i < rows.length; i += 200) await ctx.db.insert(posts).values(rows.slice(i, i + 200));
      return rows.map((r) => r.id);
    }

    const sentCount = (text: string) => telegram.sent.filter((m) => m.text === text).length;

    test('4 dispatchers in parallel over 500 due posts publish every target exactly once', async () => {
      await insertDuePosts(500, 'bulk');
      const instances = harness.contexts;
      const summaries = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          dispatchDuePosts(instances[i % instances.length]!, { ...options, owner: `dispatcher-${i}` }),
        ),
      );
      const claimed = summaries.reduce((n, s) => n + s.claimed, 0);
      const posted = summaries.reduce((n, s) => n + s.posted, 0);
      assert.equal(claimed, 500);
      assert.equal(posted, 500);
      for (let i = 0; i < 500; i++)
        assert.equal(sentCount(`bulk ${i}`), 2, `post ${i}: each of its 2 targets once`);
      const remaining = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(posts)
        .where(eq(posts.status, 'scheduled'));
      assert.equal(remaining[0]!.n, 0);
    });

    test('a dispatcher that dies mid-run leaves posts a later call finishes once its lease expires', async () => {
      const ids = await insertDuePosts(20, 'orphan');
      const taken = await claimDuePosts(ctx, 'dead-dispatcher', 100, options.leaseMs);
      assert.equal(taken.length, 20);
      const whileLeased = await dispatchDuePosts(ctx, options);
      assert.equal(whileLeased.claimed, 0, 'a live lease is respected');
      // The dispatcher never comes back: let its lease run out.
      await ctx.db
        .update(posts)
        .set({ leaseExpiresAt: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(posts.leaseOwner, 'dead-dispatcher'));
      const later = await dispatchDuePosts(ctx, options);
      assert.equal(later.claimed, 20);
      assert.equal(later.posted, 20);
      for (let i = 0; i < 20; i++) assert.equal(sentCount(`orphan ${i}`), 2);
      assert.equal((await getPost(ctx, userId, ids[0]!)).status, 'posted');
    });

    test('a target left mid-publish by a dead dispatcher is not sent again', async () => {
      const [id] = await insertDuePosts(1, 'mid-publish');
      await claimDuePosts(ctx, 'crashed', 1, options.leaseMs);
      await ctx.db.execute(sql`
        INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at)
        VALUES (${id}, ${news}, 'telegram', 'publishing', 'crashed', 1, now())`);
      await ctx.db
        .update(posts)
        .set({ leaseExpiresAt: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(posts.id, id!));
      await dispatchDuePosts(ctx, options);
      const post = await getPost(ctx, userId, id!);
      assert.equal(post.status, 'failed');
      const byAccount = Object.fromEntries(post.results.map((r) => [r.accountId, r]));
      assert.equal(byAccount[news]!.error!.code, 'interrupted');
      assert.equal(byAccount[updates]!.status, 'posted');
      assert.equal(sentCount('mid-publish 0'), 1, 'only the target that never started was sent');
    });

    test('transient failures are retried on later dispatches with backoff, then the post fails', async () => {
      const [id] = await insertDuePosts(1, 'flaky', [news]);
      telegram.injectServerError(502, { times: 3, method: 'sendMessage' });
      const first = await dispatchDuePosts(ctx, options);
      assert.equal(first.rescheduled, 1);
      let post = await getPost(ctx, userId, id!);
      assert.equal(post.status, 'scheduled');
      assert.equal(post.results[0]!.error!.retryable, true);
      await new Promise((r) => setTimeout(r, 20));
      const second = await dispatchDuePosts(ctx, options);
      assert.equal(second.posted, 1);
      post = await getPost(ctx, userId, id!);
      assert.equal(post.status, 'posted');
      assert.equal(sentCount('flaky 0'), 1);

      const [doomed] = await insertDuePosts(1, 'doomed', [news]);
      telegram.injectServerError(502, { times: 100, method: 'sendMessage' });
      for (let i = 0; i < options.maxAttempts; i++) {
        await dispatchDuePosts(ctx, options);
        await new Promise((r) => setTimeout(r, 20));
      }
      telegram.server.clearInjected();
      assert.equal((await getPost(ctx, userId, doomed!)).status, 'failed');
      assert.equal(sentCount('doomed 0'), 0);
    });

    test('credentials are stored encrypted: the raw column holds no bot token', async () => {
      const result = await ctx.db.execute(sql`SELECT credentials FROM accounts`);
      const rows = (result as unknown as { rows: { credentials: string }[] }).rows;
      assert.ok(rows.length >= 2);
      for (const row of rows) {
        assert.ok(!row.credentials.includes(bots.main.token) && !row.credentials.includes(bots.second.token));
        assert.ok(!row.credentials.includes('botToken'));
        assert.match(row.credentials, /^v1\.[0-9a-f]{12}\./);
      }
    });
  });
}
