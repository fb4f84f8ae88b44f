import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type FakeX,
  type FakeYouTube,
  sampleMp4,
  startFakeX,
  startFakeYouTube,
} from '@postwave/shared/testing';
import { sql } from 'drizzle-orm';
import { saveAccount } from '#server/accounts/save-account.ts';
import type { AppContext } from '#server/context.ts';
import { runCronDispatch } from '#server/dispatch/cron.ts';
import { Stager } from '#server/dispatch/stager.ts';
import { uploadFromRequest } from '#server/media/service.ts';
import { createPost } from '#server/posts/create-post.ts';
import { deletePost } from '#server/posts/delete-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { updatePost } from '#server/posts/update-post.ts';
import { sweepStagedDiscards } from '#server/staging/discard.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * The staging pass across instances: several stagers (one per app instance on PostgreSQL) over
 * the same scheduled video posts stage each target exactly once (claims with SKIP LOCKED and a
 * guarded upsert), and a stager that dies mid-upload leaves its claim to another once its lease
 * has run out. A cron call stages too. Staged uploads the platform keeps (YouTube) are removed
 * when the post is edited or deleted, and a removal that failed is retried by the sweep.
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
    let workspaceId: string;
    let accountId: string;
    let mediaKey: string;

    before(async () => {
      x = await startFakeX({ processingPolls: 1 });
      harness = await startServices(backend, x.env(), 3);
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `staging-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      accountId = (
        await saveAccount(ctx, workspaceId, {
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
          workspaceId,
          new Request('http://test.invalid/upload', { method: 'POST', body: form }),
        )
      ).media.key;
    });
    after(async () => {
      await harness?.stop();
      await x?.close();
    });

    async function scheduleVideos(count: number, label: string): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const post = await createPost(ctx, workspaceId, {
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
          const views = await Promise.all(ids.map((id) => getPost(ctx, workspaceId, id)));
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

    test('a cron call stages posts due within the lead', async () => {
      const [id] = await scheduleVideos(1, 'cron');
      const uploadsBefore = x.media.size;
      const summary = await runCronDispatch(ctx);
      assert.equal(summary.staged, 1, JSON.stringify(summary));
      assert.equal(summary.claimed, 0, 'nothing was due');
      assert.equal((await getPost(ctx, workspaceId, id!)).staging[0]?.status, 'staged');
      assert.equal(x.media.size - uploadsBefore, 1, 'the video was uploaded ahead by the cron call');
      assert.equal(x.posts.length, 0, 'nothing published ahead of time');
      // A second call finds nothing left to stage.
      assert.equal((await runCronDispatch(ctx)).staged, 0);
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
        const first = await getPost(ctx, workspaceId, id!);
        assert.equal(first.staging[0]?.status, 'staging', 'the live lease is respected');
        await until(async () => (await getPost(ctx, workspaceId, id!)).staging[0]?.status === 'staged');
      } finally {
        await stager.stop();
      }
    });
  });

  describe(`discarding staged uploads (${backend})`, () => {
    let youtube: FakeYouTube;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let accountId: string;
    let mediaKey: string;

    before(async () => {
      youtube = await startFakeYouTube();
      harness = await startServices(backend, youtube.env(), 1);
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `discard-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      accountId = (
        await saveAccount(ctx, workspaceId, {
          platform: 'youtube',
          platformAccountId: youtube.channel!.id,
          credentials: youtube.credentials(),
          profile: { name: 'Channel' },
        })
      ).account.id;
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(sampleMp4())], { type: 'video/mp4' }), 'clip.mp4');
      mediaKey = (
        await uploadFromRequest(
          ctx,
          workspaceId,
          new Request('http://test.invalid/upload', { method: 'POST', body: form }),
        )
      ).media.key;
    });
    after(async () => {
      await harness?.stop();
      await youtube?.close();
    });

    const queued = async () =>
      (
        (await ctx.db.execute(sql`SELECT attempts, last_error FROM staged_discards`)) as unknown as {
          rows: { attempts: number; last_error: unknown }[];
        }
      ).rows;

    /** Schedules a video post and stages it (by a cron call); answers the post and its private video. */
    async function stagedPost(message: string) {
      const post = await createPost(ctx, workspaceId, {
        message,
        accountIds: [accountId],
        postingMode: 'schedule',
        media: [{ key: mediaKey }],
        accountOptions: { [accountId]: { title: message, privacyStatus: 'public' } },
        scheduledAt: new Date(Date.now() + 5 * 60_000),
      });
      assert.ok((await runCronDispatch(ctx)).staged >= 1);
      const video = youtube.videos.find((v) => v.snippet.title === message)!;
      assert.ok(video, 'uploaded ahead');
      assert.equal(video.status.privacyStatus, 'private');
      return { post, videoId: video.id };
    }
    const holds = (videoId: string) => youtube.videos.some((v) => v.id === videoId);

    test('an edit removes the private upload; a failed removal is retried by the sweep', async () => {
      const { post, videoId } = await stagedPost('First cut');
      // YouTube refuses the first delete: the edit goes through all the same.
      youtube.failNext({ path: /^\/youtube\/v3\/videos$/, status: 403, reason: 'forbidden', times: 3 });
      const edited = await updatePost(ctx, workspaceId, post.id, { message: 'Final cut' });
      assert.equal(edited.message, 'Final cut');
      assert.deepEqual(edited.staging, [], 'the staging is forgotten at once');
      await until(async () => (await queued()).some((r) => r.last_error !== null));
      assert.ok(holds(videoId), 'still there after the failed attempt');
      youtube.server.clearInjected();
      // The retry's time comes (a minute later in real life).
      // A second back: the claim compares with this process's clock in milliseconds, and PostgreSQL's
      // now() carries microseconds, so "now" set here could still lie ahead of the claim's "now".
      await ctx.db.execute(sql`UPDATE staged_discards SET next_attempt_at = now() - interval '1 second'`);
      assert.equal((await sweepStagedDiscards(ctx)).discarded, 1);
      assert.equal(holds(videoId), false, 'removed by the sweep');
      assert.deepEqual(await queued(), []);
    });

    test('deleting a staged post removes its private upload', async () => {
      const { post, videoId } = await stagedPost('Doomed');
      await deletePost(ctx, workspaceId, post.id);
      await until(async () => !holds(videoId));
      assert.deepEqual(await queued(), []);
    });

    test('moving a staged post back to draft removes its upload; a published one is never removed', async () => {
      const { post, videoId } = await stagedPost('Back to draft');
      const { actOnPost } = await import('#server/posts/act-on-post.ts');
      await actOnPost(ctx, workspaceId, post.id, { postingMode: 'draft' });
      await until(async () => !holds(videoId));

      // Published with its staged upload (publish now), then deleted from the list: the video stays.
      const second = await stagedPost('Goes out');
      const published = await actOnPost(ctx, workspaceId, second.post.id, { postingMode: 'now' });
      assert.equal(published.status, 'posted', JSON.stringify(published.results));
      assert.equal(published.results[0]?.platformPostId, second.videoId, 'the staged upload was published');
      assert.equal(youtube.deletedVideos.includes(second.videoId), false);
      assert.ok(holds(second.videoId));
    });
  });
}
