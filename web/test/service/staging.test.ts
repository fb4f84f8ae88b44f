import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeX, sampleMp4, startFakeX } from '@postwave/shared/testing';
import { sql } from 'drizzle-orm';
import { saveAccount } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import { Stager } from '#server/dispatch/stager.ts';
import { uploadFromRequest } from '#server/media/service.ts';
import { createPost, getPost } from '#server/posts/service.ts';
import { signUp } from '#server/users/service.ts';
import { backends } from '../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../helpers/service-context.ts';

/*
 * The staging pass across instances: several stagers (one per app instance on PostgreSQL) over
 * the same scheduled video posts stage each target exactly once (claims with SKIP LOCKED and a
 * guarded upsert), and a stager that dies mid-upload leaves its claim to another once its lease
 * has run out.
 */

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const backend of backends()) {
  describe(`staging pass (${backend})`, () => {
    let x: FakeX;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let userId: string;
    let accountId: string;
    let mediaKey: string;

    before(async () => {
      x = await startFakeX({ processingPolls: 1 });
      harness = await startServices(backend, x.env(), 3);
      ctx = harness.ctx;
      userId = (
        await signUp(ctx, { email: `staging-${backend}@example.com`, password: 'long enough password' })
      ).id;
      accountId = (
        await saveAccount(ctx, userId, {
          platform: 'x',
          platformAccountId: x.user.id,
          credentials: x.credentials(),
          profile: { name: 'X', username: x.user.username },
        })
      ).account.id;
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(sampleMp4())], { type: 'video/mp4' }), 'clip.mp4');
      mediaKey = (
        await uploadFromRequest(
          ctx,
          userId,
          new Request('http://test.invalid/upload', { method: 'POST', body: form }),
        )
      ).key;
    });
    after(async () => {
      await harness?.stop();
      await x?.close();
    });

    async function scheduleVideos(count: number, label: string): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const post = await createPost(ctx, userId, {
          message: `${label} ${i}`,
          accountIds: [accountId],
          postingMode: 'schedule',
          media: [{ key: mediaKey }],
          accountOptions: {},
          scheduledAt: new Date(Date.now() + 5 * 60_000),
        });
        ids.push(post.id);
      }
      return ids;
    }

    test('stagers on every instance stage each post once', async () => {
      const ids = await scheduleVideos(8, 'shared');
      const uploadsBefore = x.media.size;
      const stagers = harness.contexts.map(
        (c, i) =>
          new Stager(c, {
            leadMs: 600_000,
            concurrency: 3,
            leaseMs: 60_000,
            intervalMs: 600_000,
            owner: `stager-${i}`,
          }),
      );
      for (const s of stagers) s.start();
      try {
        await until(async () => {
          const views = await Promise.all(ids.map((id) => getPost(ctx, userId, id)));
          return views.every((v) => v.staging[0]?.status === 'staged');
        });
      } finally {
        await Promise.all(stagers.map((s) => s.stop()));
      }
      assert.equal(
        x.media.size - uploadsBefore,
        ids.length,
        'one upload per post, whatever the number of stagers',
      );
      assert.equal(x.posts.length, 0, 'nothing published ahead of time');
    });

    test("a dead stager's claim is taken over once its lease has run out", async () => {
      const [id] = await scheduleVideos(1, 'orphan');
      // A stager that claimed the post and died: its row stays `staging` with a lease about to end.
      await ctx.db.execute(sql`
        INSERT INTO post_stagings (post_id, account_id, platform, status, content_key, lease_owner, lease_expires_at, updated_at)
        VALUES (${id}::uuid, ${accountId}, 'x', 'staging', '', 'dead-stager', now() + interval '1 second', now())`);
      const stager = new Stager(ctx, {
        leadMs: 600_000,
        concurrency: 2,
        leaseMs: 60_000,
        intervalMs: 600_000,
      });
      stager.start();
      try {
        const first = await getPost(ctx, userId, id!);
        assert.equal(first.staging[0]?.status, 'staging', 'the live lease is respected');
        await until(async () => (await getPost(ctx, userId, id!)).staging[0]?.status === 'staged');
      } finally {
        await stager.stop();
      }
    });
  });
}
