import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type FakeMastodon,
  type FakeTelegram,
  startFakeMastodon,
  startFakeTelegram,
} from '@postwave/shared/testing';
import { eq, sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { saveAccount } from '#server/accounts/save-account.ts';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { posts } from '#server/db/schema.ts';
import { Dispatcher } from '#server/dispatch/dispatcher.ts';
import { claimDuePosts } from '#server/dispatch/repository.ts';
import type { DispatchSummary } from '#server/dispatch/schema.ts';
import { type DispatchOptions, dispatchDuePosts } from '#server/dispatch/service.ts';
import { saveLinkSettings } from '#server/links/repository.ts';
import { actOnPost } from '#server/posts/act-on-post.ts';
import { createPost } from '#server/posts/create-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

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
    let mastodon: FakeMastodon;
    let toot: string;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
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
      mastodon = await startFakeMastodon({ tokens: { 'mastodon-token': { username: 'poster' } } });
      // The Mastodon fake is on loopback, a host users may not choose unless the operator allows it.
      harness = await startServices(
        backend,
        { TELEGRAM_API_URL: telegram.url, ALLOW_PRIVATE_HOSTS: new URL(mastodon.url).host },
        4,
      );
      ctx = harness.ctx;
      const user = await signUpWithWorkspace(ctx, {
        email: `dispatch-${backend}@example.com`,
        password: 'long enough password',
      });
      workspaceId = user.id;
      news = (
        await connectAccount(ctx, workspaceId, {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
        })
      ).account.id;
      updates = (
        await connectAccount(ctx, workspaceId, {
          platform: 'telegram',
          platformAccountId: '@updates',
          credentials: { botToken: bots.second.token },
        })
      ).account.id;
    });
    after(async () => {
      await harness?.stop();
      await telegram?.close();
      await mastodon?.server.close();
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
        workspaceId,
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

    /** Every claimed post is in exactly one of the summary's outcomes. */
    const assertAccounted = (summary: DispatchSummary) =>
      assert.equal(
        summary.posted +
          summary.failed +
          summary.rescheduled +
          summary.released +
          summary.errored +
          summary.lostLease,
        summary.claimed,
        JSON.stringify(summary),
      );

    const sentCount = (text: string) => telegram.sent.filter((m) => m.text === text).length;

    test('4 dispatchers in parallel over 500 due posts publish every target exactly once', async () => {
      await insertDuePosts(500, 'bulk');
      const instances = harness.contexts;
      const summaries = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          dispatchDuePosts(instances[i % instances.length]!, { ...options, owner: `dispatcher-${i}` }),
        ),
      );
      for (const summary of summaries) assertAccounted(summary);
      const claimed = summaries.reduce((n, s) => n + s.claimed, 0);
      const posted = summaries.reduce((n, s) => n + s.posted, 0);
      // The summaries say where a post that did not post went (failed, rescheduled, released,
      // errored, lost its lease).
      assert.equal(claimed, 500, JSON.stringify(summaries));
      assert.equal(posted, 500, JSON.stringify(summaries));
      for (let i = 0; i < 500; i++)
        assert.equal(sentCount(`bulk ${i}`), 2, `post ${i}: each of its 2 targets once`);
      const remaining = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(posts)
        .where(eq(posts.status, 'scheduled'));
      assert.equal(remaining[0]!.n, 0);
    });

    // PGlite has one connection: nothing there waits for a lock.
    if (backend === 'postgres')
      test('a finalization PostgreSQL picks as a deadlock’s victim is run again: the post is posted once', async () => {
        const [id] = await insertDuePosts(1, 'deadlock', [news]);
        const waitingOnRollup = async () =>
          // (The finalization's text, as far as pg_stat_activity keeps it: its first kilobyte.)
          rowsOf<{ n: number }>(
            await ctx.db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'
                AND query LIKE '%WITH recorded AS (UPDATE post_targets%'`),
          )[0]!.n > 0;
        let run!: Promise<DispatchSummary>;
        // Another transaction holds the account's row of posts counted this quarter hour (and the
        // next, should the hour turn meanwhile), as a collector's write may, so the finalization
        // (which has updated the post) waits for it; then that transaction waits for the post. The
        // finalization, waiting first, finds the deadlock and is rolled back.
        await assert.rejects(
          ctx.db.transaction(async (tx) => {
            await tx.execute(sql`INSERT INTO metric_rollups (account_id, bucket, posts)
              SELECT ${news}, to_timestamp(floor(extract(epoch FROM now()) / 900) * 900) + q * interval '15 minutes', 0
              FROM generate_series(0, 1) AS q
              ON CONFLICT (account_id, bucket) DO UPDATE SET posts = metric_rollups.posts`);
            run = dispatchDuePosts(ctx, { ...options, owner: 'deadlock-victim' });
            for (let i = 0; !(await waitingOnRollup()); i++) {
              assert.ok(i < 200, 'the finalization never waited for the rollup');
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            // Not the victim: this update goes on once the finalization has given the post up.
            await tx.execute(sql`UPDATE posts SET updated_at = updated_at WHERE id = ${id}`);
            throw new Error('rolled back by the test');
          }),
          /rolled back by the test/,
        );
        const summary = await run;
        assert.deepEqual(
          { claimed: summary.claimed, posted: summary.posted, errored: summary.errored },
          { claimed: 1, posted: 1, errored: 0 },
        );
        assert.equal(sentCount('deadlock 0'), 1);
        assert.equal((await getPost(ctx, workspaceId, id!)).status, 'posted');
      });

    test('posts that fail unexpectedly before their platform calls neither stall the run nor hold back the others', async () => {
      // The intent of any post to @updates is refused by the database: its publish throws before
      // a platform call. More of them than the run's concurrency.
      await ctx.db.execute(
        sql.raw(`CREATE FUNCTION test_refuse_intent() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'intent refused by the test'; END $$`),
      );
      await ctx.db.execute(
        sql.raw(`CREATE TRIGGER test_refuse_intent BEFORE INSERT ON post_targets FOR EACH ROW
          WHEN (NEW.account_id = '${updates}') EXECUTE FUNCTION test_refuse_intent()`),
      );
      const broken = await insertDuePosts(4, 'refused intent', [updates]);
      await insertDuePosts(2, 'beside refused', [news]);
      try {
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the run did not finish')), 20_000).unref(),
        );
        const summary = await Promise.race([dispatchDuePosts(ctx, { ...options, concurrency: 1 }), timeout]);
        assert.equal(summary.claimed, 6);
        assert.equal(summary.posted, 2);
        assertAccounted(summary);
        assert.equal(sentCount('beside refused 0') + sentCount('beside refused 1'), 2);
      } finally {
        await ctx.db.execute(sql.raw('DROP TRIGGER test_refuse_intent ON post_targets'));
        await ctx.db.execute(sql.raw('DROP FUNCTION test_refuse_intent()'));
        for (const id of broken) await ctx.db.delete(posts).where(eq(posts.id, id));
      }
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
      assert.equal((await getPost(ctx, workspaceId, ids[0]!)).status, 'posted');
    });

    test('a target left mid-publish by a dead dispatcher on a platform without dedupe becomes unknown, never sent twice', async () => {
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
      const post = await getPost(ctx, workspaceId, id!);
      assert.equal(post.status, 'failed');
      const byAccount = Object.fromEntries(post.results.map((r) => [r.accountId, r]));
      assert.equal(byAccount[news]!.status, 'unknown');
      assert.equal(byAccount[news]!.error!.code, 'outcome_unknown');
      assert.equal(byAccount[updates]!.status, 'posted');
      assert.equal(sentCount('mid-publish 0'), 1, 'only the target that never started was sent');
    });

    test('a Mastodon send whose answer was lost in a crash is resumed with the same Idempotency-Key: posted once', async () => {
      toot ??= (
        await saveAccount(ctx, workspaceId, {
          platform: 'mastodon',
          platformAccountId: 'poster',
          credentials: { instanceUrl: mastodon.server.url, accessToken: 'mastodon-token' },
          profile: { name: 'Poster' },
        })
      ).account.id;
      const [id] = await insertDuePosts(1, 'resumed', [toot, news]);
      await claimDuePosts(ctx, 'crashed', 1, options.leaseMs);
      // The crashed dispatcher recorded its intent, and the platform got the status; the answer was lost.
      await ctx.db.execute(sql`
        INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at)
        VALUES (${id}, ${toot}, 'mastodon', 'publishing', 'crashed', 1, now())`);
      const earlier = await fetch(`${mastodon.server.url}/api/v1/statuses`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer mastodon-token',
          'content-type': 'application/json',
          'idempotency-key': `${id}:${toot}`,
        },
        body: JSON.stringify({ status: 'resumed 0' }),
      }).then((r) => r.json() as Promise<{ id: string }>);
      await ctx.db
        .update(posts)
        .set({ leaseExpiresAt: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(posts.id, id!));
      await dispatchDuePosts(ctx, options);
      const post = await getPost(ctx, workspaceId, id!);
      assert.equal(post.status, 'posted');
      const result = post.results.find((r) => r.accountId === toot)!;
      assert.equal(result.status, 'posted');
      assert.equal(result.platformPostId, earlier.id, 'the status of the lost answer, not a new one');
      assert.equal(mastodon.statuses.filter((s) => s.text === 'resumed 0').length, 1);
      assert.equal(sentCount('resumed 0'), 1);
    });

    test('unknown targets: "mark posted" settles the post, "post again" sends once more', async () => {
      const [first, second] = await insertDuePosts(2, 'unsure', [news]);
      for (const id of [first!, second!]) {
        await ctx.db.execute(sql`
          INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at)
          VALUES (${id}, ${news}, 'telegram', 'unknown', 'crashed', 1, now())`);
        await ctx.db.update(posts).set({ status: 'failed', nextAttemptAt: null }).where(eq(posts.id, id));
      }
      // Publishing a failed post again leaves unknown targets alone.
      const retried = await actOnPost(ctx, workspaceId, first!, { postingMode: 'now' });
      assert.equal(retried.results[0]!.status, 'unknown');
      assert.equal(sentCount('unsure 0'), 0);
      const marked = await actOnPost(ctx, workspaceId, first!, { resolveUnknown: 'mark_posted' });
      assert.equal(marked.status, 'posted');
      assert.equal(marked.results[0]!.status, 'posted');
      assert.equal(sentCount('unsure 0'), 0);
      const again = await actOnPost(ctx, workspaceId, second!, { resolveUnknown: 'post_again' });
      assert.equal(again.status, 'posted');
      assert.equal(sentCount('unsure 1'), 1);
      await assert.rejects(
        actOnPost(ctx, workspaceId, second!, { resolveUnknown: 'mark_posted' }),
        /409|posted/,
      );
    });

    test('transient failures are retried on later dispatches with backoff, then the post fails', async () => {
      const [id] = await insertDuePosts(1, 'flaky', [news]);
      telegram.injectServerError(502, { times: 3, method: 'sendMessage' });
      const first = await dispatchDuePosts(ctx, options);
      assert.equal(first.rescheduled, 1);
      let post = await getPost(ctx, workspaceId, id!);
      assert.equal(post.status, 'scheduled');
      assert.equal(post.results[0]!.error!.retryable, true);
      await new Promise((r) => setTimeout(r, 20));
      const second = await dispatchDuePosts(ctx, options);
      assert.equal(second.posted, 1);
      post = await getPost(ctx, workspaceId, id!);
      assert.equal(post.status, 'posted');
      assert.equal(sentCount('flaky 0'), 1);

      const [doomed] = await insertDuePosts(1, 'doomed', [news]);
      telegram.injectServerError(502, { times: 100, method: 'sendMessage' });
      for (let i = 0; i < options.maxAttempts; i++) {
        await dispatchDuePosts(ctx, options);
        await new Promise((r) => setTimeout(r, 20));
      }
      telegram.server.clearInjected();
      assert.equal((await getPost(ctx, workspaceId, doomed!)).status, 'failed');
      assert.equal(sentCount('doomed 0'), 0);
    });

    test('the dispatcher sleeps until the earliest due post and wakes when one is scheduled earlier', async () => {
      const dispatcher = new Dispatcher(ctx, { ...options, intervalMs: 600_000 });
      dispatcher.start();
      try {
        await new Promise((r) => setTimeout(r, 200));
        // Scheduled after the dispatcher went to sleep for its 10-minute poll: only the wake-up can send it.
        const later = new Date(Date.now() + 1500);
        const sooner = new Date(Date.now() + 600);
        const schedule = (message: string, at: Date) =>
          createPost(ctx, workspaceId, {
            message,
            accountIds: [news],
            postingMode: 'schedule',
            media: [],
            accountOptions: {},
            scheduledAt: at,
          });
        const second = await schedule('wake later', later);
        const first = await schedule('wake sooner', sooner);
        const end = Date.now() + 15_000;
        while (sentCount('wake later') === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
        // The fake counts a send on receipt; the post's result is written a moment after the answer.
        while ((await getPost(ctx, workspaceId, second.id)).status === 'scheduled' && Date.now() < end)
          await new Promise((r) => setTimeout(r, 20));
        for (const [post, at] of [
          [first, sooner],
          [second, later],
        ] as const) {
          const done = await getPost(ctx, workspaceId, post.id);
          assert.equal(done.status, 'posted');
          assert.ok(Date.parse(done.postedAt!) >= at.getTime(), 'never before scheduledAt');
        }
        assert.equal(sentCount('wake sooner'), 1);
        assert.equal(sentCount('wake later'), 1);
      } finally {
        await dispatcher.stop();
      }
    });

    test('a batch publishing longer than the lease renews its claims: no other dispatcher takes them over', async () => {
      const ids = await insertDuePosts(3, 'long-batch');
      // Each send takes 2.5 s at the platform, the lease is 600 ms: only renewal keeps the claims.
      telegram.answerSlowly(2500, { times: 6, method: 'sendMessage' });
      const short = { ...options, leaseMs: 600 };
      const first = dispatchDuePosts(ctx, { ...short, owner: 'slow-dispatcher' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const second = await dispatchDuePosts(harness.contexts.at(-1)!, {
        ...short,
        owner: 'eager-dispatcher',
      });
      assert.equal(second.claimed, 0, 'the live dispatcher kept its leases past their first expiry');
      const done = await first;
      assert.equal(done.posted, 3);
      for (let i = 0; i < 3; i++)
        assert.equal(sentCount(`long-batch ${i}`), 2, `post ${i}: each target once`);
      for (const id of ids) {
        const post = await getPost(ctx, workspaceId, id);
        assert.equal(post.status, 'posted');
        assert.deepEqual(
          post.results.map((r) => r.status),
          ['posted', 'posted'],
        );
      }
      // Finished posts hold no lease any more: renewal never resurrects one.
      const leased = await ctx.db.execute(
        sql`SELECT count(*)::int AS n FROM posts WHERE lease_owner = 'slow-dispatcher'`,
      );
      assert.equal((leased as unknown as { rows: { n: number }[] }).rows[0]!.n, 0);
    });

    test('a publish-now outliving the lease renews it: no dispatcher takes the post over', async () => {
      // The send takes 2.5 s at the platform, the lease is 600 ms: only renewal keeps the post.
      telegram.answerSlowly(2500, { times: 1, method: 'sendMessage' });
      const shortLease = { ...ctx.config.dispatcher, leaseMs: 600 };
      const requestCtx: AppContext = { ...ctx, config: { ...ctx.config, dispatcher: shortLease } };
      const now = createPost(requestCtx, workspaceId, {
        message: 'slow publish now',
        accountIds: [news],
        postingMode: 'now',
        media: [],
        accountOptions: {},
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const dispatcher = await dispatchDuePosts(harness.contexts.at(-1)!, {
        ...options,
        leaseMs: 600,
        owner: 'eager-dispatcher',
      });
      assert.equal(dispatcher.claimed, 0, 'the request kept its lease past its first expiry');
      const created = await now;
      assert.equal(created.status, 'posted');
      assert.equal(sentCount('slow publish now'), 1);

      // The same for `POST /api/v1/posts/{id}` with postingMode now (a draft published).
      const draft = await createPost(ctx, workspaceId, {
        message: 'slow draft published',
        accountIds: [news],
        postingMode: 'draft',
        media: [],
        accountOptions: {},
      });
      telegram.answerSlowly(2500, { times: 1, method: 'sendMessage' });
      const acting = actOnPost(requestCtx, workspaceId, draft.id, { postingMode: 'now' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const again = await dispatchDuePosts(harness.contexts.at(-1)!, {
        ...options,
        leaseMs: 600,
        owner: 'eager-dispatcher',
      });
      assert.equal(again.claimed, 0);
      assert.equal((await acting).status, 'posted');
      assert.equal(sentCount('slow draft published'), 1);
      const leased = await ctx.db.execute(
        sql`SELECT count(*)::int AS n FROM posts WHERE id IN (${created.id}::uuid, ${draft.id}::uuid) AND lease_owner IS NOT NULL`,
      );
      assert.equal((leased as unknown as { rows: { n: number }[] }).rows[0]!.n, 0);
    });

    test('every post of a run gets its workspace’s link settings (read once per run); a change applies from the next run', async () => {
      const utm = (campaign: string) => ({
        workspaceId,
        utm: { source: '{platform}', medium: 'social', campaign },
        provider: null,
        apiUrl: null,
        apiKey: null,
        domain: null,
        updatedAt: new Date(),
      });
      try {
        await saveLinkSettings(ctx, utm('first'));
        await insertDuePosts(30, 'tracked https://ex.com/a', [news]);
        assert.equal((await dispatchDuePosts(ctx, options)).posted, 30);
        const tagged = (campaign: string, i: number) =>
          `tracked https://ex.com/a?utm_source=telegram&utm_medium=social&utm_campaign=${campaign} ${i}`;
        for (let i = 0; i < 30; i++) assert.equal(sentCount(tagged('first', i)), 1, `post ${i}`);
        await saveLinkSettings(ctx, utm('second'));
        await insertDuePosts(3, 'tracked https://ex.com/a', [news]);
        assert.equal((await dispatchDuePosts(ctx, options)).posted, 3);
        for (let i = 0; i < 3; i++) assert.equal(sentCount(tagged('second', i)), 1, `post ${i}`);
      } finally {
        await ctx.db.execute(
          sql`DELETE FROM workspace_link_settings WHERE workspace_id = ${workspaceId}::uuid`,
        );
      }
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
