import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postMetricNames } from '@postwave/shared';
import { type FakeTelegram, type FakeX, startFakeTelegram, startFakeX } from '@postwave/shared/testing';
import { eq, sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { saveAccount } from '#server/accounts/save-account.ts';
import { collectDueMetrics } from '#server/analytics/collect-metrics.ts';
import { claimDueTargets, releaseAccounts } from '#server/analytics/collect-queue.ts';
import { enrollPostedTargets, recordTargetOutcomes } from '#server/analytics/collect-repository.ts';
import { runCollection } from '#server/analytics/collector.ts';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import {
  accountMetrics,
  accounts,
  metricCollectAccounts,
  metricSnapshots,
  targetLinks,
  targetMetrics,
} from '#server/db/schema.ts';
import { createPost } from '#server/posts/create-post.ts';
import { allTargetFigures, targetFigures, targetFiguresSql } from '#test/helpers/target-figures.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

for (const backend of backends()) {
  describe(`analytics collection (${backend})`, () => {
    let x: FakeX;
    let telegram: FakeTelegram;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let userId: string;
    let xAccount: string;
    let news: string;

    before(async () => {
      x = await startFakeX();
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News', username: 'news', memberCount: 10 } },
      });
      harness = await startServices(
        backend,
        { ...x.env(), TELEGRAM_API_URL: telegram.url, ANALYTICS_COLLECT_AFTER: '1ms,1h,1d' },
        2,
      );
      ctx = harness.ctx;
      userId = (
        await signUpWithWorkspace(ctx, {
          email: `analytics-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      xAccount = (await connectAccount(ctx, userId, { platform: 'x', credentials: x.credentials() })).account
        .id;
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
      await x?.close();
      await telegram?.close();
    });

    const publish = (message: string) =>
      createPost(ctx, userId, {
        message,
        accountIds: [xAccount, news],
        postingMode: 'now',
        media: [],
        accountOptions: {},
      });
    const rowOf = (postId: string, accountId: string) => targetFigures(ctx, postId, accountId);
    /** Both rollups a collection kept (quarter hours, hours) agree with the targets' latest figures summed again. */
    const assertRollupsAgree = async () => {
      // Every post metric the rollups hold (a new metric is checked too).
      const columns = postMetricNames;
      const sums = sql.raw(columns.map((m) => `sum((metrics->>'${m}')::bigint)::text AS ${m}`).join(', '));
      const names = sql.raw(columns.map((m) => `${m}::text AS ${m}`).join(', '));
      const order = sql.raw('ORDER BY account_id, bucket');
      for (const [table, seconds] of [
        ['metric_rollups', 900],
        ['metric_rollups_hourly', 3600],
      ] as const) {
        const bucket = sql.raw(
          `to_timestamp(floor(extract(epoch FROM posted_at) / ${seconds}) * ${seconds})`,
        );
        const expected = await ctx.db.execute(sql`
          SELECT account_id, ${bucket} AS bucket, count(*)::int AS posts, sum(engagement)::text AS engagement, ${sums}
          FROM (${targetFiguresSql}) AS t GROUP BY 1, 2 ${order}`);
        const kept = await ctx.db.execute(sql`
          SELECT account_id, bucket, posts, engagement::text AS engagement, ${names} FROM ${sql.identifier(table)} ${order}`);
        assert.deepEqual(rowsOf(kept), rowsOf(expected), table);
      }
      // Each hour's `top_engagement` bounds its targets' engagement from above (top posts rely on it).
      const unbounded = await ctx.db.execute(sql`
        SELECT m.account_id, m.post_id, m.engagement, h.top_engagement FROM (${targetFiguresSql}) AS m
        LEFT JOIN metric_rollups_hourly h ON h.account_id = m.account_id
          AND h.bucket = to_timestamp(floor(extract(epoch FROM m.posted_at) / 3600) * 3600)
        WHERE m.engagement IS NOT NULL AND (h.top_engagement IS NULL OR h.top_engagement < m.engagement)`);
      assert.deepEqual(rowsOf(unbounded), [], 'an hour’s top_engagement is below one of its targets');
    };
    /**
     * Time passes: every collecting target is due again, and so are their accounts in the collector's
     * queue. A second ago: the claim compares with this process's clock in milliseconds, and the
     * database's `now()` (microseconds) may lie later in the same millisecond.
     */
    const dueAgo = sql`now() - interval '1 second'`;
    const makeDue = async () => {
      await ctx.db.execute(sql`UPDATE metric_due SET due_at = ${dueAgo}`);
      await ctx.db.execute(sql`UPDATE metric_collect_accounts SET next_due_at = ${dueAgo}`);
    };

    /** Only this account stands due in the collector's queue (the others' turn comes tomorrow). */
    const onlyDue = async (accountId: string) => {
      await ctx.db.execute(sql`UPDATE metric_collect_accounts
        SET next_due_at = CASE WHEN account_id = ${accountId} THEN ${dueAgo} ELSE now() + interval '1 day' END`);
    };

    test('collects on schedule, records the history, follows the fake’s changing figures, stops for a deleted post', async () => {
      const one = await publish('first');
      const two = await publish('second');
      const idOne = one.results.find((r) => r.accountId === xAccount)!.platformPostId!;
      const idTwo = two.results.find((r) => r.accountId === xAccount)!.platformPostId!;
      x.figures.set(idOne, { like_count: 3, impression_count: 100 });
      x.figures.followers = 50;

      const [a, b] = await Promise.all(harness.contexts.map((c, i) => runCollection(c, `test-${i}`)));
      const runs = [a, b].filter(Boolean);
      assert.equal(
        runs.reduce((n, r) => n + r!.collected, 0),
        2,
        'each X target collected once across instances',
      );
      const first = await rowOf(one.id, xAccount);
      assert.equal(first?.state, 'collecting');
      assert.equal(first?.step, 1);
      assert.deepEqual(first?.metrics, {
        impressions: 100,
        likes: 3,
        comments: 0,
        reposts: 0,
        quotes: 0,
        saves: 0,
      });
      assert.equal(first?.engagement, 3);
      assert.equal((await rowOf(one.id, news))?.state, 'unsupported');
      await assertRollupsAgree();

      x.figures.set(idOne, { like_count: 8, reply_count: 2 });
      x.figures.delete(idTwo);
      await makeDue();
      await runCollection(ctx);
      const second = await rowOf(one.id, xAccount);
      assert.equal(second?.engagement, 10);
      assert.equal(second?.step, 1, 'an early collection keeps the scheduled one (+1 h) ahead');
      assert.equal((await rowOf(two.id, xAccount))?.state, 'gone');
      const history = await ctx.db.select().from(metricSnapshots).where(eq(metricSnapshots.postId, one.id));
      assert.deepEqual(history.map((h) => h.metrics.likes).sort(), [3, 8]);
      await assertRollupsAgree();

      const followers = await ctx.db.select().from(accountMetrics);
      assert.deepEqual(Object.fromEntries(followers.map((f) => [f.accountId, f.followers])), {
        [xAccount]: 50,
        [news]: 10,
      });
    });

    test('a run of many rounds (one target each, claimed ahead, the same workers throughout) collects every due target once', async () => {
      const posts = await Promise.all(['round one', 'round two', 'round three'].map((m) => publish(m)));
      await makeDue();
      const due = (await allTargetFigures(ctx, 'collecting')).filter(
        (r) => r.nextCollectAt && r.nextCollectAt.getTime() <= Date.now(),
      );
      const before = new Date();
      const summary = await collectDueMetrics(ctx, { owner: 'test-rounds', batch: 1, concurrency: 2 });
      assert.equal(summary.targets, due.length, 'one target a round, each claimed once');
      assert.equal(summary.collected, due.length);
      for (const post of posts) {
        const row = await rowOf(post.id, xAccount);
        assert.ok(row?.collectedAt && row.collectedAt >= before, 'collected in this run');
      }
      // Every account was given back, due again at its earliest collecting target.
      const queue = await ctx.db.select().from(metricCollectAccounts);
      assert.deepEqual(
        queue.filter((a) => a.leaseOwner !== null || a.leaseExpiresAt !== null),
        [],
        'no account left held',
      );
      for (const account of queue) {
        const [earliest] = rowsOf<{ at: unknown }>(
          await ctx.db.execute(sql`SELECT min(due_at) AS at FROM metric_due
            WHERE account_id = ${account.accountId}`),
        );
        assert.equal(account.nextDueAt?.getTime() ?? null, dateOrNull(earliest?.at)?.getTime() ?? null);
      }
      await assertRollupsAgree();
    });

    test('a figure that goes missing has its rollup summed again', async () => {
      const post = await publish('figures go missing');
      const platformPostId = post.results.find((r) => r.accountId === xAccount)!.platformPostId!;
      x.figures.set(platformPostId, { like_count: 3, impression_count: 70 });
      await makeDue();
      await runCollection(ctx);
      await ctx.db.execute(
        sql`UPDATE metric_collect_accounts SET lease_owner = 'test-missing' WHERE account_id = ${xAccount}`,
      );
      // The platform reports likes alone this time: the impressions and the rest it reported before are gone.
      const before = (await rowOf(post.id, xAccount))!;
      assert.equal(before.metrics.impressions, 70);
      // The entry the outcome replaces carries the old figures (70 impressions) the rollups lose.
      const [entry] = rowsOf<{ due_at: string }>(
        await ctx.db.execute(
          sql`SELECT due_at::text AS due_at FROM metric_due WHERE post_id = ${post.id}::uuid`,
        ),
      );
      await recordTargetOutcomes(
        ctx,
        'test-missing',
        [
          {
            postId: post.id,
            accountId: xAccount,
            dueAt: entry!.due_at,
            metrics: { likes: 4 },
            engagement: 4,
            state: 'collecting',
            step: 1,
            nextCollectAt: new Date(Date.now() + 3_600_000),
          },
        ],
        new Date(),
      );
      assert.deepEqual((await rowOf(post.id, xAccount))?.metrics, { likes: 4 });
      await assertRollupsAgree();
    });

    test('an outcome whose history row or next entry is already there is still written (its round is not stuck)', async () => {
      const post = await publish('written twice');
      const platformPostId = post.results.find((r) => r.accountId === xAccount)!.platformPostId!;
      x.figures.set(platformPostId, { like_count: 5 });
      await makeDue();
      await runCollection(ctx);
      await ctx.db.execute(
        sql`UPDATE metric_collect_accounts SET lease_owner = 'test-twice' WHERE account_id = ${xAccount}`,
      );
      const [entry] = rowsOf<{ due_at: string }>(
        await ctx.db.execute(
          sql`SELECT due_at::text AS due_at FROM metric_due WHERE post_id = ${post.id}::uuid`,
        ),
      );
      // The write does not expect these (a target has one entry, collected once at a time): a
      // history row at the same instant and the next entry, there before it runs.
      const collectedAt = new Date();
      const nextCollectAt = new Date(Date.now() + 3_600_000);
      await ctx.db.execute(sql`
        INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
        VALUES (${post.id}::uuid, ${xAccount}, ${collectedAt.toISOString()}::timestamptz, '{"likes": 6}'::jsonb, 6)`);
      await ctx.db.execute(sql`
        INSERT INTO metric_due (account_id, due_at, post_id, step, posted_at, metrics, engagement)
        SELECT account_id, ${nextCollectAt.toISOString()}::timestamptz, post_id, 2, posted_at, '{"likes": 6}'::jsonb, 6
        FROM metric_due WHERE post_id = ${post.id}::uuid`);
      await recordTargetOutcomes(
        ctx,
        'test-twice',
        [
          {
            postId: post.id,
            accountId: xAccount,
            dueAt: entry!.due_at,
            metrics: { likes: 6 },
            engagement: 6,
            state: 'collecting',
            step: 2,
            nextCollectAt,
          },
        ],
        collectedAt,
      );
      await releaseAccounts(ctx, 'test-twice', [{ accountId: xAccount, at: nextCollectAt.toISOString() }]);
      const entries = rowsOf<{ due_at: unknown }>(
        await ctx.db.execute(sql`SELECT due_at FROM metric_due WHERE post_id = ${post.id}::uuid`),
      );
      assert.deepEqual(
        entries.map((e) => dateOrNull(e.due_at)?.getTime()),
        [nextCollectAt.getTime()],
        'the claimed entry taken, one next entry',
      );
      const [queued] = await ctx.db
        .select()
        .from(metricCollectAccounts)
        .where(eq(metricCollectAccounts.accountId, xAccount));
      assert.equal(queued?.leaseOwner, null, 'its account given back');
    });

    test('a target enrolled while its account is held is collected on time once the account is given back', async () => {
      const held = await publish('collected while another is enrolled');
      // A post that went out but is not enrolled yet (as when publishing's outcome is resolved by hand).
      const late = await publish('enrolled while held');
      await ctx.db.delete(targetMetrics).where(eq(targetMetrics.postId, late.id));
      await ctx.db.execute(sql`DELETE FROM metric_due WHERE post_id = ${late.id}::uuid`);
      await ctx.db.execute(sql`UPDATE metric_due SET due_at = ${dueAgo} WHERE post_id = ${held.id}::uuid`);
      await onlyDue(xAccount);
      const claimed = (await claimDueTargets(ctx, 'test-held', { limit: 100, leaseMs: 60_000 })).filter(
        (t) => t.accountId === xAccount,
      );
      assert.ok(claimed.length > 0);
      // Meanwhile it is enrolled, its first collection after the lease's end.
      await enrollPostedTargets(ctx, ['x'], 3_600_000);
      const nextCollectAt = new Date(Date.now() + 86_400_000);
      await recordTargetOutcomes(
        ctx,
        'test-held',
        claimed.map((t) => ({
          postId: t.postId,
          accountId: t.accountId,
          dueAt: t.dueAt,
          metrics: { likes: 1 },
          engagement: 1,
          state: 'collecting' as const,
          step: 2,
          nextCollectAt,
        })),
        new Date(),
      );
      await releaseAccounts(ctx, 'test-held', [
        { accountId: xAccount, at: claimed[0]!.accountNextDue },
        { accountId: xAccount, at: nextCollectAt.toISOString() },
      ]);
      const [queued] = await ctx.db
        .select()
        .from(metricCollectAccounts)
        .where(eq(metricCollectAccounts.accountId, xAccount));
      const [earliest] = rowsOf<{ at: unknown }>(
        await ctx.db.execute(sql`SELECT min(due_at) AS at FROM metric_due WHERE account_id = ${xAccount}`),
      );
      assert.equal(queued?.leaseOwner, null);
      // No later than its earliest entry, the one enrolled meanwhile (it may be due earlier: an entry
      // queued since the last release counts whether or not the claim saw it; the next claim settles it).
      const due = dateOrNull(earliest?.at)!;
      assert.ok(
        queued?.nextDueAt && queued.nextDueAt <= due,
        `due again by ${due.toISOString()}, not ${queued?.nextDueAt?.toISOString()}`,
      );
    });

    test('an hour whose rollup row disagrees with its targets is summed again', async () => {
      const post = await publish('an hour out of step');
      const platformPostId = post.results.find((r) => r.accountId === xAccount)!.platformPostId!;
      x.figures.set(platformPostId, { like_count: 2, impression_count: 40 });
      await makeDue();
      await runCollection(ctx);
      const target = await rowOf(post.id, xAccount);
      assert.equal(target?.metrics?.impressions, 40);
      await assertRollupsAgree();
      // The hour lost its impressions (a row that disagrees with its targets' figures).
      await ctx.db.execute(sql`
        UPDATE metric_rollups_hourly SET impressions = NULL
        WHERE account_id = ${xAccount}
          AND bucket = to_timestamp(floor(extract(epoch FROM ${target.postedAt.toISOString()}::timestamptz) / 3600) * 3600)`);
      x.figures.set(platformPostId, { like_count: 6, impression_count: 70 });
      await makeDue();
      await runCollection(ctx);
      assert.equal((await rowOf(post.id, xAccount))?.metrics?.impressions, 70);
      await assertRollupsAgree();
    });

    test('two collectors at once (two instances) ask for every due target once, an account held by one of them at a time', async () => {
      // More accounts than one claim considers (8), so the other collector finds some it did not lock.
      const racing: string[] = [];
      for (let i = 0; i < 12; i++) {
        const { account } = await saveAccount(ctx, userId, {
          platform: 'x',
          platformAccountId: `race-${i}`,
          credentials: x.credentials(),
          profile: { name: `Race ${i}` },
        });
        racing.push(account.id);
      }
      // Posts per account (the fake refuses one account's duplicate text, as X does).
      for (let i = 0; i < 2; i++)
        for (const accountId of racing)
          await createPost(ctx, userId, {
            message: `race ${i} on ${accountId}`,
            accountIds: [accountId],
            postingMode: 'now',
            media: [],
            accountOptions: {},
          });
      await makeDue();
      const dueBefore = (await allTargetFigures(ctx, 'collecting')).filter((t) => t.platform === 'x');
      const before = new Date();
      // Small rounds, so the two interleave over the accounts rather than one taking them all.
      // Each with its own pool on PostgreSQL, as two instances would be (PGlite has one).
      const other = harness.contexts[1] ?? ctx;
      const [a, b] = await Promise.all([
        collectDueMetrics(ctx, { owner: 'race-a', batch: 2, concurrency: 2 }),
        collectDueMetrics(other, { owner: 'race-b', batch: 2, concurrency: 2 }),
      ]);
      assert.equal(a!.targets + b!.targets, dueBefore.length, 'every due target claimed once');
      assert.equal(a!.collected + b!.collected, dueBefore.length);
      assert.ok(a!.targets > 0 && b!.targets > 0, `both collected (${a!.targets} and ${b!.targets})`);
      const history = await ctx.db
        .select()
        .from(metricSnapshots)
        .where(sql`${metricSnapshots.collectedAt} >= ${before.toISOString()}::timestamptz`);
      const perTarget = Map.groupBy(history, (h) => `${h.postId} ${h.accountId}`);
      assert.equal(perTarget.size, dueBefore.length);
      assert.ok(
        [...perTarget.values()].every((rows) => rows.length === 1),
        'one collection each',
      );
      assert.deepEqual(
        [...perTarget.keys()].sort(),
        dueBefore.map((t) => `${t.postId} ${t.accountId}`).sort(),
      );
      for (const accountId of racing)
        assert.equal(
          dueBefore.filter((t) => t.accountId === accountId).length,
          2,
          'two due on each racing account',
        );
      const held = await ctx.db
        .select()
        .from(metricCollectAccounts)
        .where(sql`${metricCollectAccounts.leaseOwner} IS NOT NULL`);
      assert.deepEqual(held, [], 'every account given back');
    });

    test('accounts queued with nothing due (their targets gone) never hold back those due, and are settled', async () => {
      const post = await publish('behind a queue of gone accounts');
      await makeDue();
      // More such accounts than a claim takes (8 or more), all due before the real ones.
      const gone = Array.from({ length: 20 }, (_, i) => `gone-account-${i}`);
      for (const accountId of gone)
        await ctx.db.execute(sql`INSERT INTO metric_collect_accounts (account_id, next_due_at)
          VALUES (${accountId}, now() - interval '1 day')`);
      const before = new Date();
      const summary = await collectDueMetrics(ctx, { owner: 'test-gone', batch: 100, concurrency: 2 });
      assert.ok(summary.collected >= 1, `collected ${summary.collected}`);
      const row = await rowOf(post.id, xAccount);
      assert.ok(row?.collectedAt && row.collectedAt >= before, 'collected in this run');
      const settled = await ctx.db
        .select()
        .from(metricCollectAccounts)
        .where(sql`${metricCollectAccounts.accountId} LIKE 'gone-account-%'`);
      assert.deepEqual(
        settled.map((a) => [a.accountId, a.nextDueAt, a.leaseOwner]).sort(),
        gone.map((id) => [id, null, null]).sort(),
        'due never again, and not held',
      );
    });

    test('a target’s platform id is copied when it is enrolled, and looked up for a row without it', async () => {
      const post = await publish('asked by the id its metrics row carries');
      const target = post.results.find((r) => r.accountId === xAccount)!;
      x.figures.set(target.platformPostId!, { like_count: 7 });
      const enrolled = await rowOf(post.id, xAccount);
      assert.equal(enrolled?.platformPostId, target.platformPostId, 'copied when publishing enrolled it');
      assert.equal(enrolled?.url, target.url ?? null);
      // A row an older instance enrolled (before migration 0040) carries no id: the claim finds it.
      await ctx.db.execute(sql`UPDATE target_metrics SET platform_post_id = NULL, url = NULL
        WHERE post_id = ${post.id}::uuid`);
      await makeDue();
      await runCollection(ctx);
      assert.equal((await rowOf(post.id, xAccount))?.metrics.likes, 7);
    });

    test('a deleted post’s history goes with it (a trigger, as the foreign key did)', async () => {
      const post = await publish('kept in the history, then deleted');
      await makeDue();
      await runCollection(ctx);
      const history = () => ctx.db.select().from(metricSnapshots).where(eq(metricSnapshots.postId, post.id));
      assert.equal((await history()).length, 1, 'collected once');
      // A posted post goes with its workspace (or by hand); its targets' rows cascade from it.
      await ctx.db.execute(sql`DELETE FROM posts WHERE id = ${post.id}`);
      assert.equal((await rowOf(post.id, xAccount)) ?? null, null);
      assert.deepEqual(await history(), [], 'its history went with its target');
      const entries = await ctx.db.execute(sql`SELECT 1 FROM metric_due WHERE post_id = ${post.id}::uuid`);
      assert.deepEqual(rowsOf(entries), [], 'its schedule went with its target');
    });

    test('an entry whose target is gone (written by a collection racing the deletion) is dropped, never collected', async () => {
      const post = await publish('deleted while its collection was in flight');
      await ctx.db.execute(sql`DELETE FROM posts WHERE id = ${post.id}`);
      // What a collection that held the target wrote after the deletion's trigger had run.
      await ctx.db.execute(sql`INSERT INTO metric_due (account_id, due_at, post_id, step, posted_at)
        VALUES (${xAccount}, now() - interval '1 minute', ${post.id}::uuid, 1, now() - interval '2 hours')`);
      await onlyDue(xAccount);
      const lookups = () => x.requestsTo('GET', /^\/2\/tweets$/).map((r) => r.query.get('ids') ?? '');
      const asked = lookups().length;
      await collectDueMetrics(ctx, { owner: 'test-orphan', batch: 100, concurrency: 2 });
      const left = await ctx.db.execute(sql`SELECT 1 FROM metric_due WHERE post_id = ${post.id}::uuid`);
      assert.deepEqual(rowsOf(left), [], 'dropped');
      const history = await ctx.db.select().from(metricSnapshots).where(eq(metricSnapshots.postId, post.id));
      assert.deepEqual(history, [], 'not collected');
      const id = post.results.find((r) => r.accountId === xAccount)!.platformPostId!;
      assert.ok(
        lookups()
          .slice(asked)
          .every((ids) => !ids.split(',').includes(id)),
        'its platform was not asked about it',
      );
    });

    test('a collector that dies holding an account loses nothing: its entries are collected once its lease runs out', async () => {
      const post = await publish('claimed by a collector that died');
      await ctx.db.execute(sql`UPDATE metric_due SET due_at = ${dueAgo} WHERE post_id = ${post.id}::uuid`);
      await onlyDue(xAccount);
      const claimed = await claimDueTargets(ctx, 'died', { limit: 100, leaseMs: 1 });
      assert.ok(
        claimed.some((t) => t.postId === post.id),
        'claimed, then never written',
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      const before = new Date();
      await collectDueMetrics(ctx, { owner: 'survivor', batch: 100, concurrency: 2 });
      const row = await rowOf(post.id, xAccount);
      assert.ok(row?.collectedAt && row.collectedAt >= before, 'collected by the next collector');
      const entries = rowsOf(
        await ctx.db.execute(sql`SELECT 1 FROM metric_due WHERE post_id = ${post.id}::uuid`),
      );
      assert.equal(entries.length, 1, 'one next entry, as ever');
    });

    test('clicks that cannot be counted (no shortener now) keep a short-linked target on its schedule', async () => {
      // A Telegram post (no post metrics of its own) with a short link: collected for its clicks.
      const post = await createPost(ctx, userId, {
        message: 'see https://ex.com/a',
        accountIds: [news],
        postingMode: 'now',
        media: [],
        accountOptions: {},
      });
      const now = new Date();
      await ctx.db.delete(targetMetrics).where(eq(targetMetrics.postId, post.id));
      await ctx.db.insert(targetLinks).values({
        postId: post.id,
        accountId: news,
        url: 'https://ex.com/a',
        longUrl: 'https://ex.com/a',
        shortUrl: 'https://s.example/abc',
        provider: 'shlink',
        ref: 'abc',
        createdAt: now,
        updatedAt: now,
      });
      await runCollection(ctx);
      assert.equal((await rowOf(post.id, news))?.state, 'collecting', 'enrolled for its clicks');
      // The workspace has no shortener (removed since): no clicks this time, nothing written, and
      // the next step still ahead, rather than the schedule ended at its first collection.
      await makeDue();
      await runCollection(ctx);
      const row = await rowOf(post.id, news);
      assert.equal(row?.state, 'collecting');
      assert.equal(row?.step, 1);
      assert.equal(row?.collectedAt, null);
      assert.ok(row!.nextCollectAt!.getTime() > Date.now());
    });

    test('a refused token marks the account needs_reconnect and keeps its targets for later', async () => {
      const post = await publish('third');
      x.invalidateAccessTokens();
      x.revokeRefreshTokens();
      await runCollection(ctx);
      const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, xAccount));
      assert.equal(account?.status, 'needs_reconnect');
      const row = await rowOf(post.id, xAccount);
      assert.equal(row?.state, 'collecting');
      assert.equal(row?.step, 0);
      assert.ok(row!.nextCollectAt!.getTime() > Date.now() + 3_600_000);
    });
  });
}
