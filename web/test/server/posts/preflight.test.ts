import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { eq } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import type { AppContext } from '#server/context.ts';
import { accounts, posts, webhookDeliveries } from '#server/db/schema.ts';
import { createPost } from '#server/posts/create-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import { preflightDuePosts } from '#server/preflight/preflighter.ts';
import { createWebhook } from '#server/webhooks/service.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

const hour = 3_600_000;

for (const backend of backends()) {
  describe(`pre-flight check (${backend})`, () => {
    let telegram: FakeTelegram;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let userId: string;
    let news: string;

    before(async () => {
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News' } },
      });
      harness = await startServices(backend, {
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: '127.0.0.1:9',
      });
      ctx = harness.ctx;
      userId = (
        await signUpWithWorkspace(ctx, {
          email: `preflight-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      news = (
        await connectAccount(ctx, userId, {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
        })
      ).account.id;
      await createWebhook(ctx, userId, { url: 'http://127.0.0.1:9/hook', events: ['post.at_risk'] });
    });
    after(async () => {
      await harness?.stop();
      await telegram?.close();
    });

    const schedule = (message: string, inMs: number) =>
      createPost(ctx, userId, {
        message,
        accountIds: [news],
        postingMode: 'schedule',
        media: [],
        accountOptions: {},
        scheduledAt: new Date(Date.now() + inMs),
      });
    const pass = () => preflightDuePosts(ctx, { leadMs: hour, limit: 50 });
    const atRiskEvents = async (postId: string) =>
      (await ctx.db.select().from(webhookDeliveries)).filter((d) => {
        const body = JSON.parse(d.body) as { type: string; data: { id: string } };
        return body.type === 'post.at_risk' && body.data.id === postId;
      });

    test('within the lead a healthy post is checked once and left alone; later ones wait', async () => {
      const soon = await schedule('preflight healthy', 30 * 60_000);
      const later = await schedule('preflight later', 3 * hour);
      const sentBefore = telegram.sent.length;
      assert.ok((await pass()) >= 1);
      assert.equal((await getPost(ctx, userId, soon.id)).risk, null);
      const [checked] = await ctx.db.select().from(posts).where(eq(posts.id, soon.id));
      assert.ok(checked!.preflightCheckedAt, 'checked');
      const [waiting] = await ctx.db.select().from(posts).where(eq(posts.id, later.id));
      assert.equal(waiting!.preflightCheckedAt, null, 'outside the lead: not yet');
      assert.equal(await pass(), 0, 'a checked post is not checked again until it changes');
      assert.equal(telegram.sent.length, sentBefore, 'a check publishes nothing');
    });

    test('an account that needs reconnecting puts the post at risk once: event, webhook, timeline; a later good check clears it', async () => {
      const post = await schedule('preflight broken', 20 * 60_000);
      await ctx.db.update(accounts).set({ status: 'needs_reconnect' }).where(eq(accounts.id, news));
      try {
        await pass();
        const risky = await getPost(ctx, userId, post.id);
        assert.equal(risky.risk?.code, 'needs_reconnect');
        assert.equal(risky.risk?.accountId, news);
        assert.match(risky.risk?.hint ?? '', /reconnect the account/);
        assert.equal((await atRiskEvents(post.id)).length, 1, 'post.at_risk recorded with the risk');
        // Looked at again after the recheck interval: still broken, no second announcement.
        await ctx.db
          .update(posts)
          .set({ preflightCheckedAt: new Date(Date.now() - hour) })
          .where(eq(posts.id, post.id));
        await pass();
        assert.equal((await atRiskEvents(post.id)).length, 1, 'announced once');
        const failed = (await listPostTimeline(ctx, userId, post.id)).events.filter(
          (e) => e.type === 'preflight_failed',
        );
        assert.equal(failed.length, 1);
        assert.equal(failed[0]!.error?.code, 'needs_reconnect');
        assert.match(failed[0]!.error?.hint ?? '', /reconnect/);
      } finally {
        await ctx.db.update(accounts).set({ status: 'active' }).where(eq(accounts.id, news));
      }
      await ctx.db
        .update(posts)
        .set({ preflightCheckedAt: new Date(Date.now() - hour) })
        .where(eq(posts.id, post.id));
      await pass();
      assert.equal((await getPost(ctx, userId, post.id)).risk, null, 'mended: the risk is cleared');
      const types = (await listPostTimeline(ctx, userId, post.id)).events.map((e) => e.type);
      assert.deepEqual(types, ['created', 'scheduled', 'preflight_failed', 'preflight_passed']);
      const [row] = await ctx.db.select().from(posts).where(eq(posts.id, post.id));
      assert.equal(row!.status, 'scheduled', 'never published early');
    });

    test('pre-flight events are dated by their check, not by the post’s last change', async () => {
      const post = await schedule('preflight dated', 20 * 60_000);
      // Made and last edited ten minutes ago: a check does not change `updated_at`.
      const madeAt = new Date(Date.now() - 10 * 60_000);
      await ctx.db.update(posts).set({ createdAt: madeAt, updatedAt: madeAt }).where(eq(posts.id, post.id));
      const events = async () => (await listPostTimeline(ctx, userId, post.id)).events;
      const failedCheck = Date.now();
      await ctx.db.update(accounts).set({ status: 'needs_reconnect' }).where(eq(accounts.id, news));
      try {
        await pass();
      } finally {
        await ctx.db.update(accounts).set({ status: 'active' }).where(eq(accounts.id, news));
      }
      const checkedAt = (await getPost(ctx, userId, post.id)).risk?.checkedAt;
      assert.ok(checkedAt && Date.parse(checkedAt) >= failedCheck);
      const failed = (await events()).find((e) => e.type === 'preflight_failed');
      assert.equal(failed?.at, checkedAt, 'when the check found the problem, as the post says');

      await ctx.db
        .update(posts)
        .set({ preflightCheckedAt: new Date(Date.now() - hour) })
        .where(eq(posts.id, post.id));
      const passedCheck = Date.now();
      await pass();
      const passed = (await events()).find((e) => e.type === 'preflight_passed');
      assert.ok(passed, 'the problem is gone');
      assert.ok(Date.parse(passed.at) >= passedCheck, `${passed.at} is when the later check ran`);
      assert.deepEqual(
        (await events()).map((e) => e.type),
        ['created', 'scheduled', 'preflight_failed', 'preflight_passed'],
      );
    });
  });
}
