import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { createPost } from '#server/posts/create-post.ts';
import { deletePost } from '#server/posts/delete-post.ts';
import { onPostStatusChange, type PostStatusChange } from '#server/posts/status-feed.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/** The status feed hears every post whose status a statement changed, however many (migration 0038). */
for (const backend of backends()) {
  describe(`post status feed (${backend})`, () => {
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    const heard: PostStatusChange[] = [];
    let stop: () => void = () => {};

    before(async () => {
      harness = await startServices(backend, {});
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `feed-${backend}@example.com`,
          password: 'long enough password',
        })
      ).workspaceId;
      stop = await onPostStatusChange(ctx, (change) => heard.push(change));
    });
    after(async () => {
      stop();
      await harness?.stop();
      // The feed is one per process (a deployment has one database); the next backend opens its own.
      delete (globalThis as { __postwaveStatusFeed?: unknown }).__postwaveStatusFeed;
    });

    const heardFor = async (ids: readonly string[], status: string) => {
      const deadline = Date.now() + 5_000;
      const missing = () =>
        ids.filter((id) => !heard.some((c) => c.kind === 'post' && c.id === id && c.status === status));
      while (missing().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return missing();
    };

    test('one statement changing 120 posts’ status is heard for each; a deleted post too', async () => {
      const first = await createPost(ctx, workspaceId, {
        message: 'heard',
        accountIds: [],
        postingMode: 'draft',
        media: [],
        accountOptions: {},
      });
      // 119 copies of it, then every one moved on in one statement (three notifications of up to 50).
      await ctx.db.execute(sql`
        INSERT INTO posts SELECT (jsonb_populate_record(p, jsonb_build_object('id', gen_random_uuid()))).*
        FROM posts p, generate_series(1, 119) WHERE p.id = ${first.id}`);
      const ids = rowsOf<{ id: string }>(
        await ctx.db.execute(
          sql`UPDATE posts SET status = 'failed' WHERE workspace_id = ${workspaceId} RETURNING id`,
        ),
      ).map((r) => r.id);
      assert.equal(ids.length, 120);
      assert.deepEqual(await heardFor(ids, 'failed'), [], 'every post heard');
      for (const change of heard) if (change.kind === 'post') assert.equal(change.workspaceId, workspaceId);
      // An update that changes no status says nothing.
      const before = heard.length;
      await ctx.db.execute(sql`UPDATE posts SET updated_at = now() WHERE workspace_id = ${workspaceId}`);
      await deletePost(ctx, workspaceId, first.id);
      assert.deepEqual(await heardFor([first.id], 'deleted'), []);
      assert.deepEqual(
        heard.slice(before).map((c) => (c.kind === 'post' ? c.status : c.kind)),
        ['deleted'],
      );
    });
  });
}
