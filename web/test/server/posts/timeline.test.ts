import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { eq, sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import type { AuditActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { posts } from '#server/db/schema.ts';
import { type DispatchOptions, dispatchDuePosts } from '#server/dispatch/service.ts';
import { actOnPost } from '#server/posts/act-on-post.ts';
import { createPost } from '#server/posts/create-post.ts';
import { deletePost } from '#server/posts/delete-post.ts';
import { listPostEvents, recordPostEvent, recordRetriedCall } from '#server/posts/history.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import { updatePost } from '#server/posts/update-post.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

const options: DispatchOptions = {
  batchSize: 50,
  concurrency: 4,
  timeBudgetMs: 60_000,
  leaseMs: 300_000,
  maxAttempts: 3,
  retryBaseMs: 1,
};

for (const backend of backends()) {
  describe(`post timeline (${backend})`, () => {
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
      harness = await startServices(backend, { TELEGRAM_API_URL: telegram.url });
      ctx = harness.ctx;
      userId = (
        await signUpWithWorkspace(ctx, {
          email: `timeline-${backend}@example.com`,
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
    });
    after(async () => {
      await harness?.stop();
      await telegram?.close();
    });

    const timeline = async (postId: string) => (await listPostTimeline(ctx, userId, postId)).events;
    const makeDue = (postId: string) =>
      ctx.db
        .update(posts)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(posts.id, postId));

    test('a draft edited, scheduled, then published: each step once, in order', async () => {
      const ada: AuditActor = { type: 'member', name: 'Ada' };
      const draft = await createPost(
        ctx,
        userId,
        {
          message: 'timeline draft',
          accountIds: [news],
          postingMode: 'draft',
          media: [],
          accountOptions: {},
        },
        null,
        ada,
      );
      await updatePost(ctx, userId, draft.id, { message: 'timeline draft, edited' }, ada);
      const at = new Date(Date.now() + 3_600_000);
      await actOnPost(ctx, userId, draft.id, { postingMode: 'schedule', scheduledAt: at }, ada);
      const steps = await timeline(draft.id);
      assert.deepEqual(
        steps.map((e) => e.type),
        ['created', 'updated', 'scheduled'],
      );
      // Each step names the member who took it (contract F: actor { type, name }).
      for (const step of steps) assert.deepEqual(step.actor, { type: 'user', name: 'Ada' }, step.type);
      await makeDue(draft.id);
      await dispatchDuePosts(ctx, options);
      const events = await timeline(draft.id);
      assert.deepEqual(
        events.map((e) => e.type),
        ['created', 'updated', 'scheduled', 'attempt', 'posted'],
      );
      const attempt = events[3]!;
      assert.equal(attempt.accountId, news);
      assert.equal(attempt.outcome, 'posted');
      assert.equal(attempt.attempt, 1);
      assert.deepEqual(attempt.actor, { type: 'system', name: 'Postwave' });
      // The post page words the attempt with the platform's name from its manifest, not its id.
      const worded = (await listPostEvents(ctx, userId, draft.id)).find((e) => e.action === 'attempt');
      assert.equal(worded?.description, 'sent it to the platform (Telegram): posted');
      assert.ok(events.every((e, i) => i === 0 || e.at >= events[i - 1]!.at));
    });

    test('each platform call is an attempt: one retried at once, then the answer', async () => {
      const post = await createPost(ctx, userId, {
        message: 'timeline retried call',
        accountIds: [news],
        postingMode: 'schedule',
        media: [],
        accountOptions: {},
        scheduledAt: new Date(Date.now() + 3_600_000),
      });
      await makeDue(post.id);
      telegram.injectServerError(502, { times: 1, method: 'sendMessage' });
      await dispatchDuePosts(ctx, options);
      const events = await timeline(post.id);
      assert.deepEqual(
        events.map((e) => [e.type, e.outcome ?? null]),
        [
          ['created', null],
          ['scheduled', null],
          ['attempt', 'failed'],
          ['attempt', 'posted'],
          ['posted', null],
        ],
      );
      const failed = events[2]!;
      // Each call is numbered: the one retried at once is attempt 1, the call that posted attempt 2.
      assert.deepEqual([events[2]!.attempt, events[3]!.attempt], [1, 2]);
      assert.equal(failed.error?.code, 'platform_unavailable');
      assert.equal(failed.error?.platformStatus, 502);
      assert.match(failed.error?.hint ?? '', /wait a little, then try again/);
      assert.equal(failed.accountId, news);
    });

    test('every call of a failed dispatch is numbered; the later dispatch goes on from there', async () => {
      const post = await createPost(ctx, userId, {
        message: 'timeline retry',
        accountIds: [news],
        postingMode: 'schedule',
        media: [],
        accountOptions: {},
        scheduledAt: new Date(Date.now() + 3_600_000),
      });
      await makeDue(post.id);
      // More 502s than the dispatch's immediate retries: this dispatch of the target fails.
      telegram.injectServerError(502, { times: 10, method: 'sendMessage' });
      await dispatchDuePosts(ctx, options);
      telegram.clearInjected();
      const afterFailure = await timeline(post.id);
      assert.ok(!afterFailure.some((e) => e.type === 'failed'), 'a retryable failure is not the end');
      const calls = afterFailure.filter((e) => e.type === 'attempt');
      assert.ok(calls.length >= 2, 'every call is recorded');
      assert.ok(calls.every((e) => e.outcome === 'failed' && e.error?.platformStatus === 502));
      assert.deepEqual(
        calls.map((e) => e.attempt),
        calls.map((_, i) => i + 1),
      );
      await makeDue(post.id);
      await dispatchDuePosts(ctx, options);
      const events = await timeline(post.id);
      assert.deepEqual(events.at(-2)!.type, 'attempt');
      assert.deepEqual([events.at(-2)!.outcome, events.at(-2)!.attempt], ['posted', calls.length + 1]);
      assert.equal(events.at(-1)!.type, 'posted');
    });

    test('a thread records one attempt per part', async () => {
      const post = await createPost(ctx, userId, {
        message: 'timeline thread 1',
        thread: [
          { message: 'timeline thread 2', media: [] },
          { message: 'timeline thread 3', media: [] },
        ],
        accountIds: [news],
        postingMode: 'schedule',
        media: [],
        accountOptions: {},
        scheduledAt: new Date(Date.now() + 3_600_000),
      });
      await makeDue(post.id);
      await dispatchDuePosts(ctx, options);
      const attempts = (await timeline(post.id)).filter((e) => e.type === 'attempt');
      assert.deepEqual(
        attempts.map((e) => [e.part, e.outcome]),
        [
          [0, 'posted'],
          [1, 'posted'],
          [2, 'posted'],
        ],
      );
    });

    test('events stay after their post, `deleted` last, and lose a deleted user; none is written for a post gone', async () => {
      const count = async (postId: string) =>
        rowsOf<{ n: number }>(
          await ctx.db.execute(sql`SELECT count(*)::int AS n FROM post_events WHERE post_id = ${postId}`),
        )[0]!.n;
      const post = await createPost(ctx, userId, {
        message: 'deleted with its events',
        accountIds: [news],
        postingMode: 'draft',
        media: [],
        accountOptions: {},
      });
      // A user who acted on the post (an assistant's member, say), then is deleted.
      const helper = crypto.randomUUID();
      await ctx.db.execute(sql`INSERT INTO users (id, email, created_at, updated_at)
        VALUES (${helper}, ${`helper-${helper}@example.com`}, now(), now())`);
      await recordPostEvent(ctx, {
        postId: post.id,
        userId: helper,
        actor: 'assistant',
        actorName: 'Helper',
        action: 'submitted',
      });
      await ctx.db.execute(sql`DELETE FROM users WHERE id = ${helper}`);
      const kept = rowsOf<{ user_id: string | null }>(
        await ctx.db.execute(
          sql`SELECT user_id FROM post_events WHERE post_id = ${post.id} AND action = 'submitted'`,
        ),
      );
      assert.deepEqual(kept, [{ user_id: null }], 'the event stays, without the user');
      const before = await count(post.id);
      assert.ok(before >= 2);
      await deletePost(ctx, userId, post.id);
      assert.equal(await count(post.id), before + 1, 'the post’s events stay, and `deleted` ends them');
      assert.equal((await timeline(post.id)).at(-1)!.type, 'deleted');
      await recordPostEvent(ctx, {
        postId: post.id,
        userId: null,
        actor: 'assistant',
        actorName: 'Late',
        action: 'updated',
      });
      await recordRetriedCall(ctx, {
        postId: post.id,
        userId: null,
        accountId: news,
        platform: 'telegram',
        error: { code: 'network', message: 'late', retryable: true },
      });
      assert.equal(await count(post.id), before + 1, 'nothing is written for a post that is gone');
    });

    test('another user’s post has no timeline for you (404)', async () => {
      const other = await signUpWithWorkspace(ctx, {
        email: `timeline-other-${backend}@example.com`,
        password: 'long enough password',
      });
      const post = await createPost(ctx, userId, {
        message: 'mine',
        accountIds: [news],
        postingMode: 'draft',
        media: [],
        accountOptions: {},
      });
      await assert.rejects(
        listPostTimeline(ctx, other.id, post.id),
        (error: { status?: number }) => error.status === 404,
      );
    });
  });
}
