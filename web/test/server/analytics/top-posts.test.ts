import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { saveAccount } from '#server/accounts/save-account.ts';
import { bucketsOfTargets, refreshRollups } from '#server/analytics/collect-rollups.ts';
import { topTargets } from '#server/analytics/top-posts-repository.ts';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { targetFiguresSql } from '#test/helpers/target-figures.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * Top posts are found through the hours' highest engagement (a bound), not an index on
 * `engagement`: whatever the bounds and ties, they must be exactly the targets a plain
 * `ORDER BY engagement DESC, posted_at DESC` over the range would give.
 */

const days = 6;
const targetsPerAccount = 400;

for (const backend of backends()) {
  describe(`top posts (${backend})`, () => {
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    const accountIds: string[] = [];

    before(async () => {
      harness = await startServices(backend, {});
      ctx = harness.ctx;
      const user = await signUpWithWorkspace(ctx, {
        email: `top-${backend}@example.com`,
        password: 'long enough password',
      });
      workspaceId = user.workspaceId;
      for (let i = 0; i < 3; i++) {
        const { account } = await saveAccount(ctx, workspaceId, {
          platform: 'x',
          platformAccountId: String(500 + i),
          credentials: { accessToken: `top-${i}` },
          profile: { name: `Top ${i}` },
        });
        accountIds.push(account.id);
      }
      // Targets spread over the last days at distinct times, engagement in a narrow range (0-6, so
      // many hours tie on their highest), some without figures yet.
      await ctx.db.execute(sql`
        WITH p AS (
          INSERT INTO posts (id, workspace_id, user_id, status, message, account_ids, media, account_options, created_at, updated_at, posted_at)
          SELECT gen_random_uuid(), ${workspaceId}::uuid, ${user.userId}::uuid, 'posted', 'top ' || g, '[]'::jsonb, '[]'::jsonb, '{}'::jsonb,
            now(), now(), now() - (g * ${(days * 86_400) / (targetsPerAccount * 3)} + (g % 7)) * interval '1 second'
          FROM generate_series(1, ${targetsPerAccount * 3}) AS g
          RETURNING id, message, posted_at),
        t AS (
          INSERT INTO post_targets (post_id, account_id, platform, status, platform_post_id, attempts, updated_at)
          SELECT p.id, (${sql.param(accountIds)}::text[])[1 + split_part(p.message, ' ', 2)::int % 3], 'x', 'posted',
            split_part(p.message, ' ', 2), 1, p.posted_at
          FROM p RETURNING post_id, account_id),
        m AS (
          INSERT INTO target_metrics (post_id, account_id, platform, platform_post_id, posted_at, state)
          SELECT t.post_id, t.account_id, 'x', split_part(p.message, ' ', 2), p.posted_at, 'done'
          FROM t JOIN p ON p.id = t.post_id)
        -- Their figures: each one's latest history row (none for those without figures yet).
        INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
        SELECT t.post_id, t.account_id, p.posted_at + interval '1 hour', jsonb_build_object('likes', e.v), e.v
        FROM t JOIN p ON p.id = t.post_id
        CROSS JOIN LATERAL (SELECT CASE WHEN split_part(p.message, ' ', 2)::int % 11 = 0 THEN NULL
          ELSE (split_part(p.message, ' ', 2)::int * 7919) % 7 END AS v) AS e
        WHERE e.v IS NOT NULL`);
      const keys = rowsOf<{ post_id: string; account_id: string }>(
        await ctx.db.execute(sql`SELECT post_id, account_id FROM target_metrics`),
      );
      await refreshRollups(ctx, bucketsOfTargets(JSON.stringify(keys)));
    });
    after(async () => {
      await harness?.stop();
    });

    /** The plain answer: every target of the range sorted. */
    const expected = async (from: string, to: string, tz: string, limit: number, accounts?: string[]) =>
      rowsOf<{ post_id: string; engagement: number }>(
        await ctx.db.execute(sql`
          SELECT m.post_id, m.engagement FROM (${targetFiguresSql}) AS m
          WHERE m.account_id = ANY(${sql.param(accounts ?? accountIds)}::text[]) AND m.engagement IS NOT NULL
            AND m.posted_at >= ((${from})::date::timestamp AT TIME ZONE ${tz})
            AND m.posted_at < (((${to})::date + 1)::timestamp AT TIME ZONE ${tz})
          ORDER BY m.engagement DESC, m.posted_at DESC LIMIT ${limit}`),
      ).map((r) => [String(r.post_id), Number(r.engagement)]);
    const found = async (from: string, to: string, tz: string, limit: number, accounts?: string[]) =>
      (await topTargets(ctx, workspaceId, { from, to }, tz, accounts, limit)).map((r) => [
        String(r.post_id),
        Number(r.engagement),
      ]);
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);

    const cases: [string, string, string, number, number?][] = [
      [day(days), day(0), 'UTC', 10],
      [day(2), day(1), 'UTC', 10],
      [day(3), day(3), 'Asia/Kolkata', 10],
      [day(4), day(2), 'America/St_Johns', 25],
      [day(days), day(0), 'UTC', 1],
      [day(days), day(0), 'UTC', 200],
      [day(5), day(0), 'Australia/Eucla', 10, 1],
    ];

    /** Every case answers what sorting every target of its range gives. */
    const assertSameAsSorting = async () => {
      for (const [from, to, tz, limit, account] of cases) {
        const accounts = account === undefined ? undefined : [accountIds[account]!];
        assert.deepEqual(
          await found(from, to, tz, limit, accounts),
          await expected(from, to, tz, limit, accounts),
          `${from}..${to} ${tz} top ${limit}`,
        );
      }
    };

    test('the same posts, in the same order, as sorting every target of the range', async () => {
      await assertSameAsSorting();
    });

    test('still exact when hours’ bounds stay above figures that fell', async () => {
      // Figures that fell leave their hour's bound where it was (a collection only raises it).
      // (A later collection, written as the history row that is now each target's latest.)
      await ctx.db.execute(sql`INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
        SELECT f.post_id, f.account_id, f.collected_at + interval '1 hour', jsonb_build_object('likes', f.engagement - 4),
          f.engagement - 4
        FROM (${targetFiguresSql}) AS f
        WHERE f.engagement >= 5 AND f.platform_post_id::int % 3 <> 0`);
      const stale = rowsOf<{ n: number }>(
        await ctx.db.execute(sql`SELECT count(*)::int AS n FROM metric_rollups_hourly h
          WHERE h.top_engagement > (SELECT max(m.engagement) FROM (${targetFiguresSql}) AS m WHERE m.account_id = h.account_id
            AND m.posted_at >= h.bucket AND m.posted_at < h.bucket + interval '1 hour')`),
      )[0]!.n;
      assert.ok(stale > 20, `hours with a stale bound: ${stale}`);
      await assertSameAsSorting();
    });

    test('a post that fell behind its hour’s bound does not hide a later one of equal engagement', async () => {
      // Three hours of one account, read two at a time: C (the latest, bound 9, its post now 1),
      // A (bound 9, its post now 5), B (bound 5, between them, its post 5). B's post ranks first
      // (equal engagement, posted later) though B is read after A.
      const { account } = await saveAccount(ctx, workspaceId, {
        platform: 'x',
        platformAccountId: '599',
        credentials: { accessToken: 'top-crafted' },
        profile: { name: 'Crafted' },
      });
      const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 10 * 3_600_000;
      const at = (hours: number, minutes: number) =>
        new Date(hour + hours * 3_600_000 + minutes * 60_000).toISOString();
      const targets = [
        { name: 'a', at: at(0, 30), was: 9, now: 5 },
        { name: 'b', at: at(2, 10), was: 5, now: 5 },
        { name: 'c', at: at(4, 20), was: 9, now: 1 },
      ];
      for (const t of targets) {
        await ctx.db.execute(sql`
          WITH p AS (
            INSERT INTO posts (id, workspace_id, user_id, status, message, account_ids, media, account_options, created_at, updated_at, posted_at)
            SELECT gen_random_uuid(), ${workspaceId}::uuid, w.owner_id, 'posted', ${t.name}, '[]'::jsonb, '[]'::jsonb, '{}'::jsonb,
              now(), now(), ${t.at}::timestamptz
            FROM (SELECT user_id AS owner_id FROM workspace_members WHERE workspace_id = ${workspaceId}::uuid LIMIT 1) AS w
            RETURNING id),
          t AS (
            INSERT INTO post_targets (post_id, account_id, platform, status, platform_post_id, attempts, updated_at)
            SELECT p.id, ${account.id}, 'x', 'posted', ${`crafted-${t.name}`}, 1, now() FROM p RETURNING post_id),
          m AS (
            INSERT INTO target_metrics (post_id, account_id, platform, platform_post_id, posted_at, state)
            SELECT t.post_id, ${account.id}, 'x', ${`crafted-${t.name}`}, ${t.at}::timestamptz, 'done' FROM t)
          INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
          SELECT t.post_id, ${account.id}, ${t.at}::timestamptz + interval '5 minutes',
            jsonb_build_object('likes', ${t.was}::int), ${t.was}::int FROM t`);
      }
      const keys = rowsOf<{ post_id: string; account_id: string }>(
        await ctx.db.execute(
          sql`SELECT post_id, account_id FROM target_metrics WHERE account_id = ${account.id}`,
        ),
      );
      await refreshRollups(ctx, bucketsOfTargets(JSON.stringify(keys)));
      for (const t of targets)
        await ctx.db.execute(sql`INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics, engagement)
          SELECT m.post_id, m.account_id, ${t.at}::timestamptz + interval '10 minutes',
            jsonb_build_object('likes', ${t.now}::int), ${t.now}::int
          FROM target_metrics m WHERE m.platform_post_id = ${`crafted-${t.name}`}`);
      const from = day(1);
      const top = await topTargets(ctx, workspaceId, { from, to: day(0) }, 'UTC', [account.id], 1);
      assert.deepEqual(
        top.map((r) => r.message),
        ['b'],
      );
    });
  });
}
