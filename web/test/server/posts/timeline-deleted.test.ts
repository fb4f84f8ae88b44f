import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { assistantActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { posts } from '#server/db/schema.ts';
import { createPost } from '#server/posts/create-post.ts';
import { deletePost } from '#server/posts/delete-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { recordPostEvent } from '#server/posts/history.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import { updatePost } from '#server/posts/update-post.ts';
import { deleteWorkspace } from '#server/workspaces/repository.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

/**
 * A deleted post keeps its timeline, which ends with `deleted` and who deleted it (contract section
 * F), for every way a post goes; its workspace's deletion still takes every event.
 */
for (const backend of backends()) {
  describe(`timeline of a deleted post (${backend})`, () => {
    let telegram: FakeTelegram;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let news: string;

    before(async () => {
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News' }, '@doomed': { id: -1002, title: 'Doomed' } },
      });
      harness = await startServices(backend, { TELEGRAM_API_URL: telegram.url });
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `timeline-deleted-${backend}@example.com`,
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

    const timeline = async (postId: string, workspace = workspaceId) =>
      (await listPostTimeline(ctx, workspace, postId)).events;
    const notFound = (error: { status?: number }) => error.status === 404;
    const countEvents = async (where: ReturnType<typeof sql>) =>
      rowsOf<{ n: number }>(
        await ctx.db.execute(sql`SELECT count(*)::int AS n FROM post_events WHERE ${where}`),
      )[0]!.n;
    const draft = (message: string, workspace = workspaceId, accountId = news) =>
      createPost(ctx, workspace, {
        message,
        accountIds: [accountId],
        postingMode: 'draft',
        media: [],
        accountOptions: {},
      });

    test('deleted by a member: its events stay for its workspace, `deleted` last with the member; the post stays 404', async () => {
      const ada = { type: 'member' as const, name: 'Ada' };
      const post = await draft('deleted, timeline kept');
      await updatePost(ctx, workspaceId, post.id, { message: 'deleted, timeline kept (edited)' }, ada);
      const before = await timeline(post.id);
      await deletePost(ctx, workspaceId, post.id, ada);

      const events = await timeline(post.id);
      assert.deepEqual(
        events.map((e) => e.type),
        ['created', 'updated', 'deleted'],
      );
      assert.deepEqual(events.slice(0, 2), before, 'the events before stay as they were');
      const deleted = events.at(-1)!;
      assert.deepEqual(deleted.actor, { type: 'user', name: 'Ada' });
      assert.ok(deleted.at >= before.at(-1)!.at, 'oldest first');
      assert.ok(Date.now() - Date.parse(deleted.at) < 60_000, 'at the time of the deletion');
      await assert.rejects(getPost(ctx, workspaceId, post.id), notFound);

      // Another workspace's member, and an id nobody used, still get 404.
      const other = await signUpWithWorkspace(ctx, {
        email: `timeline-deleted-other-${backend}@example.com`,
        password: 'long enough password',
      });
      await assert.rejects(timeline(post.id, other.id), notFound);
      await assert.rejects(timeline(crypto.randomUUID()), notFound);
      await assert.rejects(timeline('not-a-uuid'), notFound);

      // Nothing is written after `deleted`: the post is gone.
      await recordPostEvent(ctx, {
        postId: post.id,
        userId: null,
        actor: 'assistant',
        actorName: 'Late',
        action: 'updated',
      });
      assert.equal((await timeline(post.id)).length, 3);
    });

    test('deleted by an assistant (MCP delete_post): `deleted` names the assistant', async () => {
      const post = await draft('deleted by an assistant');
      await deletePost(ctx, workspaceId, post.id, assistantActor(crypto.randomUUID(), 'Claude'));
      const last = (await timeline(post.id)).at(-1)!;
      assert.deepEqual([last.type, last.actor], ['deleted', { type: 'assistant', name: 'Claude' }]);
    });

    test('recycled copies: deleted with their original (its actor), or by recycling turned off (system)', async () => {
      const insertPost = async (row: Partial<typeof posts.$inferInsert>) => {
        const id = crypto.randomUUID();
        const at = new Date();
        await ctx.db.insert(posts).values({
          id,
          workspaceId,
          status: 'scheduled',
          message: 'evergreen',
          accountIds: [news],
          media: [],
          accountOptions: {},
          scheduledAt: new Date(at.getTime() + 86_400_000),
          nextAttemptAt: new Date(at.getTime() + 86_400_000),
          createdAt: at,
          updatedAt: at,
          ...row,
        });
        return id;
      };
      const recycle = { intervalDays: 7, maxTimes: 3, jitterMinutes: 0 };
      const failed = await insertPost({ status: 'failed', recycle, scheduledAt: null, nextAttemptAt: null });
      const failedCopy = await insertPost({ recycledFrom: failed, recycleIndex: 1 });
      await deletePost(ctx, workspaceId, failed, { type: 'member', name: 'Ada' });
      for (const id of [failed, failedCopy]) {
        const last = (await timeline(id)).at(-1)!;
        assert.deepEqual([last.type, last.actor], ['deleted', { type: 'user', name: 'Ada' }], id);
      }

      const posted = await insertPost({ status: 'posted', recycle, postedAt: new Date() });
      const pendingCopy = await insertPost({ recycledFrom: posted, recycleIndex: 1 });
      await updatePost(ctx, workspaceId, posted, { recycle: null }, { type: 'member', name: 'Ada' });
      const copyEvents = await timeline(pendingCopy);
      assert.deepEqual(
        copyEvents.map((e) => e.type),
        ['created', 'scheduled', 'deleted'],
      );
      assert.deepEqual(copyEvents.at(-1)!.actor, { type: 'system', name: 'Postwave' });
      const original = await timeline(posted);
      assert.deepEqual(
        original.at(-1)!.actor,
        { type: 'user', name: 'Ada' },
        'the original says who turned it off',
      );
    });

    test('a deleted user leaves the kept events; a deleted workspace takes all its events', async () => {
      const owner = await signUpWithWorkspace(ctx, {
        email: `timeline-deleted-doomed-${backend}@example.com`,
        password: 'long enough password',
      });
      const account = (
        await connectAccount(ctx, owner.id, {
          platform: 'telegram',
          platformAccountId: '@doomed',
          credentials: { botToken: bots.main.token },
        })
      ).account.id;
      const gone = await draft('doomed, deleted first', owner.id, account);
      const kept = await draft('doomed with its workspace', owner.id, account);
      const helper = crypto.randomUUID();
      await ctx.db.execute(sql`INSERT INTO users (id, email, created_at, updated_at)
        VALUES (${helper}, ${`helper-${helper}@example.com`}, now(), now())`);
      await recordPostEvent(ctx, {
        postId: gone.id,
        userId: helper,
        actor: 'assistant',
        actorName: 'Helper',
        action: 'submitted',
      });
      await deletePost(ctx, owner.id, gone.id);
      await ctx.db.execute(sql`DELETE FROM users WHERE id = ${helper}`);
      assert.equal(await countEvents(sql`user_id = ${helper}`), 0, 'the user’s id leaves the kept events');
      assert.deepEqual(
        (await timeline(gone.id, owner.id)).map((e) => e.type),
        ['created', 'submitted', 'deleted'],
      );
      assert.deepEqual((await timeline(gone.id, owner.id)).at(-1)!.actor, {
        type: 'system',
        name: 'Postwave',
      });
      assert.ok((await countEvents(sql`post_id = ${kept.id}`)) > 0);

      assert.equal(await deleteWorkspace(ctx, owner.id), true);
      assert.equal(await countEvents(sql`workspace_id = ${owner.id}`), 0, 'none left in the workspace');
      assert.equal(await countEvents(sql`post_id IN (${gone.id}, ${kept.id})`), 0, 'nor of its posts');
    });
  });
}
