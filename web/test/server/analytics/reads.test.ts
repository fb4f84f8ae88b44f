import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { type FakeX, startFakeX } from '@postwave/shared/testing';
import { sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { runCollection } from '#server/analytics/collector.ts';
import { exportMetrics, exportRequest } from '#server/analytics/export-metrics.ts';
import { getAccountSeries } from '#server/analytics/get-account-series.ts';
import { getBestTimes } from '#server/analytics/get-best-times.ts';
import { getPostMetrics } from '#server/analytics/get-post-metrics.ts';
import { getAnalyticsSummary } from '#server/analytics/get-summary.ts';
import { refreshPostMetrics } from '#server/analytics/refresh-post-metrics.ts';
import type { AppContext } from '#server/context.ts';
import { createPost } from '#server/posts/create-post.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

const problem = (code: string) => (error: unknown) =>
  (error as { problem?: { code?: string } }).problem?.code === code;

for (const backend of backends()) {
  describe(`analytics reads (${backend})`, () => {
    let x: FakeX;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let userId: string;
    let otherId: string;
    let account: string;
    const posted: { id: string; platformPostId: string }[] = [];

    before(async () => {
      x = await startFakeX();
      harness = await startServices(backend, { ...x.env(), ANALYTICS_COLLECT_AFTER: '1ms,1h' });
      ctx = harness.ctx;
      userId = (
        await signUpWithWorkspace(ctx, {
          email: `reads-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      otherId = (
        await signUpWithWorkspace(ctx, {
          email: `other-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      account = (await connectAccount(ctx, userId, { platform: 'x', credentials: x.credentials() })).account
        .id;
      for (let i = 0; i < 21; i++) {
        const post = await createPost(ctx, userId, {
          message: `post ${i}`,
          accountIds: [account],
          postingMode: 'now',
          media: [],
          accountOptions: {},
        });
        const platformPostId = post.results[0]!.platformPostId!;
        posted.push({ id: post.id, platformPostId });
        x.figures.set(platformPostId, { like_count: i, impression_count: 10 * i });
      }
      await runCollection(ctx);
    });
    after(async () => {
      await harness?.stop();
      await x?.close();
    });

    test('a post’s figures with history; another user’s post is 404', async () => {
      const metrics = await getPostMetrics(ctx, userId, posted[5]!.id, { history: true });
      assert.equal(metrics.targets.length, 1);
      const [target] = metrics.targets;
      assert.equal(target!.metrics.likes, 5);
      assert.equal(target!.engagement, 5);
      assert.equal(target!.metricsState, 'collecting');
      assert.deepEqual(target!.supported, ['impressions', 'likes', 'comments', 'reposts', 'quotes', 'saves']);
      assert.equal(target!.history!.length, 1);
      await assert.rejects(getPostMetrics(ctx, otherId, posted[5]!.id), problem('not_found'));
    });

    test('a refresh collects the changed figures, then refuses for 5 minutes with Retry-After', async () => {
      x.figures.set(posted[0]!.platformPostId, { like_count: 40 });
      const refreshed = await refreshPostMetrics(ctx, userId, posted[0]!.id);
      assert.equal(refreshed.targets[0]!.metrics.likes, 40);
      await assert.rejects(
        refreshPostMetrics(ctx, userId, posted[0]!.id),
        (error: { problem?: { code?: string }; headers?: Record<string, string> }) => {
          assert.equal(error.problem?.code, 'rate_limited');
          assert.ok(Number(error.headers?.['retry-after']) > 200);
          return true;
        },
      );
      const history = await getPostMetrics(ctx, userId, posted[0]!.id, { history: true });
      assert.deepEqual(
        history.targets[0]!.history!.map((h) => h.metrics.likes),
        [0, 40],
      );
    });

    test('a refresh collects a target done with its schedule, and waits for an account another collector holds', async () => {
      const collections = async (i: number) =>
        (await getPostMetrics(ctx, userId, posted[i]!.id, { history: true })).targets[0]!.history!.length;
      // Done with its schedule: a person may still ask (the figures stay the fake's, so the sums
      // the next tests check do not move; the history shows the collection).
      await ctx.db.execute(sql`UPDATE target_metrics SET state = 'done' WHERE post_id = ${posted[1]!.id}`);
      await ctx.db.execute(sql`DELETE FROM metric_due WHERE post_id = ${posted[1]!.id}`);
      assert.equal(await collections(1), 1);
      await refreshPostMetrics(ctx, userId, posted[1]!.id);
      assert.equal(await collections(1), 2, 'a done target was collected');

      // Another collector holds the account (its round in flight) and gives it back soon after.
      await ctx.db.execute(sql`UPDATE metric_collect_accounts
        SET lease_owner = 'another-instance', lease_expires_at = now() + interval '1 minute'
        WHERE account_id = ${account}`);
      const release = setTimeout(600).then(() =>
        ctx.db.execute(sql`UPDATE metric_collect_accounts SET lease_owner = NULL, lease_expires_at = NULL
          WHERE account_id = ${account}`),
      );
      await refreshPostMetrics(ctx, userId, posted[2]!.id);
      await release;
      assert.equal(await collections(2), 2, 'collected once the account was given back');
    });

    test('the summary adds up per account and per day, and ranks top posts', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const summary = await getAnalyticsSummary(ctx, userId, new URLSearchParams({ from: today, to: today }));
      const likes = 40 + Array.from({ length: 20 }, (_, i) => i + 1).reduce((a, b) => a + b, 0);
      assert.equal(summary.totals.posts, 21);
      assert.equal(summary.totals.metrics.likes, likes);
      assert.equal(summary.totals.engagement, likes);
      assert.equal(summary.totals.metrics.reach, undefined, 'a metric X does not report stays absent');
      // A day no target reported figures for has no engagement: absent, never 0 (contract H).
      const before = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const quiet = await getAnalyticsSummary(ctx, userId, new URLSearchParams({ from: before, to: before }));
      assert.equal(quiet.totals.posts, 0);
      assert.ok(!('engagement' in quiet.totals), JSON.stringify(quiet.totals));
      assert.ok(!('engagement' in quiet.perDay[0]!), JSON.stringify(quiet.perDay[0]));
      assert.deepEqual(
        summary.perAccount.map((a) => [a.accountId, a.posts]),
        [[account, 21]],
      );
      assert.deepEqual(
        summary.perDay.map((d) => [d.date, d.posts]),
        [[today, 21]],
      );
      assert.equal(summary.topPosts[0]!.postId, posted[0]!.id);
      assert.equal(summary.topPosts[0]!.message, 'post 0');
      const other = await getAnalyticsSummary(ctx, otherId, new URLSearchParams({ from: today, to: today }));
      assert.equal(other.totals.posts, 0);
      await assert.rejects(
        getAnalyticsSummary(ctx, otherId, new URLSearchParams({ accountIds: account })),
        problem('not_found'),
        'another workspace’s account in the filter',
      );
      await assert.rejects(
        getAnalyticsSummary(ctx, userId, new URLSearchParams({ accountIds: `${account},not-an-id` })),
        problem('not_found'),
      );
      await assert.rejects(
        getAnalyticsSummary(ctx, userId, new URLSearchParams({ from: '2026-13-01' })),
        problem('invalid_request'),
      );
    });

    test('per-day totals follow the workspace timezone: a +5:45 offset and a DST change', async () => {
      const owner = await signUpWithWorkspace(ctx, {
        email: `zones-${backend}@example.com`,
        password: 'long enough password',
      });
      const zoned = (await connectAccount(ctx, owner.id, { platform: 'x', credentials: x.credentials() }))
        .account.id;
      // Posted targets at chosen instants, enrolled and collected as any other (both rollups kept).
      const instants = [
        '2026-03-09T18:00:00Z', // Kathmandu (+5:45) 2026-03-09 23:45: its hour holds two days
        '2026-03-09T18:14:00Z', // 2026-03-09 23:59
        '2026-03-09T18:15:00Z', // 2026-03-10 00:00
        '2026-03-09T18:29:00Z', // 2026-03-10 00:14
        '2026-11-01T03:59:00Z', // New York 2026-10-31 23:59 (EDT)
        '2026-11-01T04:00:00Z', // 2026-11-01 00:00, a day of 25 hours
        '2026-11-02T04:30:00Z', // 2026-11-01 23:30 (EST)
        '2026-11-02T05:00:00Z', // 2026-11-02 00:00
      ];
      for (const [i, at] of instants.entries()) {
        const platformPostId = String(9_000_000 + i);
        x.posts.push({ id: platformPostId, authorId: x.posts[0]!.authorId, text: `zone ${i}`, mediaIds: [] });
        await ctx.db.execute(sql`
          WITH p AS (
            INSERT INTO posts (id, workspace_id, user_id, status, message, account_ids, media, account_options,
              created_at, updated_at, posted_at)
            VALUES (gen_random_uuid(), ${owner.id}, ${owner.userId}, 'posted', ${`zone ${i}`}, '[]', '[]', '{}', ${at}, ${at}, ${at})
            RETURNING id)
          INSERT INTO post_targets (post_id, account_id, platform, status, platform_post_id, attempts, updated_at)
          SELECT p.id, ${zoned}, 'x', 'posted', ${platformPostId}, 1, ${at} FROM p`);
        x.figures.set(platformPostId, { like_count: 1 << i });
      }
      await runCollection(ctx);
      const perDay = async (timezone: string, from: string, to: string) => {
        await ctx.db.execute(
          sql`UPDATE workspaces SET settings = settings || jsonb_build_object('timezone', ${timezone}::text) WHERE id = ${owner.id}`,
        );
        const summary = await getAnalyticsSummary(ctx, owner.id, new URLSearchParams({ from, to }));
        return summary.perDay.map((d) => [d.date, d.posts, d.metrics.likes ?? 0]);
      };
      assert.deepEqual(await perDay('Asia/Kathmandu', '2026-03-09', '2026-03-10'), [
        ['2026-03-09', 2, 1 + 2],
        ['2026-03-10', 2, 4 + 8],
      ]);
      assert.deepEqual(await perDay('America/New_York', '2026-10-31', '2026-11-02'), [
        ['2026-10-31', 1, 16],
        ['2026-11-01', 2, 32 + 64],
        ['2026-11-02', 1, 128],
      ]);
      assert.deepEqual(await perDay('UTC', '2026-03-09', '2026-03-09'), [['2026-03-09', 4, 15]]);
    });

    test('the account series lists every day; best times need 20 posts', async () => {
      const to = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const series = await getAccountSeries(ctx, userId, account, new URLSearchParams({ from, to }));
      assert.equal(series.series.length, 3);
      assert.equal(series.series.at(-1)!.posts, 21);
      assert.equal(series.series[0]!.posts, 0);
      const best = await getBestTimes(ctx, userId, account);
      assert.equal(best.sampleSize, 21);
      assert.equal(best.slots.length >= 1, true);
      // Weekdays count 1 (Monday) to 7 (Sunday), as the queue's slots: moved to last Sunday, the
      // posts' hours are Sunday's (7, where PostgreSQL's dow says 0), then moved back.
      const back = new Date().getUTCDay();
      const shift = (days: number) =>
        ctx.db.execute(
          sql`UPDATE target_metrics SET posted_at = posted_at + make_interval(days => ${days}::int) WHERE account_id = ${account}`,
        );
      await shift(-back);
      try {
        const sunday = await getBestTimes(ctx, userId, account);
        assert.ok(sunday.slots.length >= 1);
        assert.deepEqual([...new Set(sunday.slots.map((slot) => slot.weekday))], [7]);
      } finally {
        await shift(back);
      }
      await ctx.db.execute(
        sql`UPDATE metric_snapshots SET engagement = NULL WHERE post_id = ${posted[1]!.id}::uuid`,
      );
      await ctx.db.execute(
        sql`UPDATE metric_snapshots SET engagement = NULL WHERE post_id = ${posted[2]!.id}::uuid`,
      );
      const few = await getBestTimes(ctx, userId, account);
      assert.deepEqual([few.sampleSize, few.slots, few.reason], [19, [], 'insufficient_data']);
      await assert.rejects(getBestTimes(ctx, otherId, account), problem('not_found'));
    });

    test('the export streams one row per target, as CSV or JSON', async () => {
      const read = async (format: string) => {
        const request = await exportRequest(ctx, userId, new URLSearchParams({ format }));
        return new Response(exportMetrics(ctx, userId, request)).text();
      };
      const csv = (await read('csv')).trim().split('\n');
      assert.equal(csv.length, 22);
      assert.match(
        csv[0]!,
        /^postId,accountId,platform,postedAt,metricsState,collectedAt,engagement,impressions,/,
      );
      const rows = JSON.parse(await read('json')) as { postId: string; metrics: { likes?: number } }[];
      assert.equal(rows.length, 21);
      assert.equal(rows.find((r) => r.postId === posted[0]!.id)!.metrics.likes, 40);
    });
  });
}
