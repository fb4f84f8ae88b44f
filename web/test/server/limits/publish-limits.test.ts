import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { rowsOf } from '#server/db/access.ts';
import { acquireLimits } from '#server/limits/repository.ts';
import { DatabaseLimitStore } from '#server/limits/store.ts';
import { createPost } from '#server/posts/create-post.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { limitStoreSuite } from '../../../../shared/test/publish/limit-store-suite.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stands in front of the fake platform, holds each call `holdMs` and records, per bot token,
 * when calls arrived and how many were in flight at once: what the platform would observe.
 */
async function startProbe(target: string, holdMs: number) {
  const arrivals = new Map<string, number[]>();
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    // Sends only (verifying an account calls getMe and getChat too).
    const bot = /^\/bot([^/]+)\/send/.exec(req.url ?? '')?.[1] ?? '?';
    (arrivals.get(bot) ?? arrivals.set(bot, []).get(bot)!).push(performance.now());
    const now = (inFlight.get(bot) ?? 0) + 1;
    inFlight.set(bot, now);
    peak.set(bot, Math.max(peak.get(bot) ?? 0, now));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const forward = httpRequest(
          new URL(req.url ?? '/', target),
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('end', () => inFlight.set(bot, inFlight.get(bot)! - 1));
          },
        );
        forward.end(Buffer.concat(chunks));
      }, holdMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    peak: (bot: string) => peak.get(bot) ?? 0,
    /** The most calls of `bot` that arrived within any `windowMs`. */
    maxInWindow(bot: string, windowMs: number) {
      const times = [...(arrivals.get(bot) ?? [])].sort((a, b) => a - b);
      let best = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i]! - times[j]! >= windowMs) j++;
        best = Math.max(best, i - j + 1);
      }
      return best;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

for (const backend of backends()) {
  describe(`publish limits shared by app instances (${backend})`, () => {
    let telegram: FakeTelegram;
    let probe: Awaited<ReturnType<typeof startProbe>>;
    let harness: ServiceHarness;

    before(async () => {
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News' }, '@updates': { id: -1002, title: 'Updates' } },
      });
      probe = await startProbe(telegram.url, 150);
      // Two instances (separate pools, limiters and stores) on PostgreSQL; PGlite has one.
      harness = await startServices(
        backend,
        {
          TELEGRAM_API_URL: probe.url,
          PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM: '2',
          PUBLISH_RATE_TELEGRAM_BOT: '4/1s',
          // The margin docs/dispatch.md tells a busy host to raise: the test suites run two at a
          // time on two cores, and a request once reached the probe over 150 ms after its grant.
          PUBLISH_LIMITS_RATE_MARGIN_MS: '300',
        },
        2,
      );
    });
    after(async () => {
      await harness?.stop();
      await probe?.close();
      await telegram?.close();
    });

    test('one bot posting from every instance at once stays within its concurrency and rate', async () => {
      const ctx = harness.ctx;
      const user = await signUpWithWorkspace(ctx, {
        email: `limits-${backend}@example.com`,
        password: 'long enough password',
      });
      const accounts: string[] = [];
      for (const chat of ['@news', '@updates']) {
        const { account } = await connectAccount(ctx, user.id, {
          platform: 'telegram',
          platformAccountId: chat,
          credentials: { botToken: bots.main.token },
        });
        accounts.push(account.id);
      }
      const sentBefore = telegram.sent.length;
      const started = performance.now();
      const views = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          createPost(harness.contexts[i % harness.contexts.length]!, user.id, {
            message: `limited ${i}`,
            accountIds: [accounts[i % 2]!],
            postingMode: 'now',
            media: [],
            accountOptions: {},
          }),
        ),
      );
      const elapsed = performance.now() - started;
      assert.deepEqual(
        views.map((v) => (v.status === 'posted' ? v.status : JSON.stringify(v.results))),
        Array(12).fill('posted'),
      );
      assert.equal(telegram.sent.length - sentBefore, 12);
      assert.equal(probe.peak(bots.main.token), 2, 'two in flight at most, and the two are used');
      // Grants are timed where they are taken (with the margin above), arrivals here: under a
      // loaded CPU a request may leave tens of ms after its grant, so allow 50 ms more.
      const peakRate = probe.maxInWindow(bots.main.token, 950);
      assert.ok(peakRate <= 4, `at most 4 calls in any second, saw ${peakRate}`);
      assert.ok(elapsed >= 2000, `12 calls at 4 a second take over 2 s, took ${Math.round(elapsed)} ms`);
    });
  });
}

/** Two instances on one PostgreSQL database, each with its limit store. */
async function twoInstances(leaseMs: number) {
  const harness = await startServices('postgres', {}, 2);
  const stores = harness.contexts.map((c) => new DatabaseLimitStore(c.db, { leaseMs }));
  return {
    stores,
    db: harness.contexts[0]!.db,
    async close() {
      for (const s of stores) await s.close();
      await harness.stop();
    },
  };
}

if (backends().includes('postgres')) {
  describe('DatabaseLimitStore (postgres)', () => {
    limitStoreSuite({ open: () => twoInstances(30_000) });

    test('a slot given back is free for the next acquisition here, before the release is written', async () => {
      const instances = await twoInstances(30_000);
      const [here, other] = instances.stores as [DatabaseLimitStore, DatabaseLimitStore];
      try {
        const key = `k-${crypto.randomUUID()}`;
        const first = await here.tryAcquire([{ key, limit: 1 }]);
        assert.ok(first.granted);
        // Not awaited: the next acquisition here must find the slot free (it is handed on).
        const written = first.grant.release();
        const second = await here.tryAcquire([{ key, limit: 1 }]);
        assert.equal(second.granted, true, 'the release went first, in the same statement');
        await written;
        assert.equal((await other.tryAcquire([{ key, limit: 1 }])).granted, false, 'held by the second');
        // A release no acquisition takes goes alone, soon: another instance sees the slot free.
        if (second.granted) await second.grant.release();
        assert.equal((await other.tryAcquire([{ key, limit: 1 }])).granted, true);
      } finally {
        await instances.close();
      }
    });

    test('a slot given back is handed on here without a statement, key by key; the rest is written free', async () => {
      const instances = await twoInstances(30_000);
      const [here, other] = instances.stores as [DatabaseLimitStore, DatabaseLimitStore];
      const grants = async () =>
        rowsOf<{ key: string; n: number }>(
          await instances.db.execute(
            sql`SELECT key, count(*)::int AS n FROM publish_limit_grants WHERE key IN (${platform}, ${botA}, ${botB}) GROUP BY key ORDER BY key`,
          ),
        );
      const platform = `platform-${crypto.randomUUID()}`;
      const botA = `a-${crypto.randomUUID()}`;
      const botB = `b-${crypto.randomUUID()}`;
      try {
        const first = await here.tryAcquire([
          { key: botA, limit: 1 },
          { key: platform, limit: 2 },
        ]);
        assert.ok(first.granted);
        const written = first.grant.release();
        // Every key idle here: granted at once, no promise, no statement.
        const again = here.tryAcquire([
          { key: botA, limit: 1 },
          { key: platform, limit: 2 },
        ]);
        assert.ok(!(again instanceof Promise) && again.granted, 'granted without asking the database');
        await written;
        assert.ok(!(again instanceof Promise) && again.granted);
        const handedOn = again.grant.release();
        // Another bot: the platform's slot is handed on, the bot's is asked for; bot A's goes back.
        const b = await here.tryAcquire([
          { key: botB, limit: 1 },
          { key: platform, limit: 2 },
        ]);
        assert.ok(b.granted);
        await handedOn;
        const platformRows = (rows: { key: string; n: number }[]) => rows.find((r) => r.key === platform)?.n;
        assert.equal(platformRows(await grants()), 1, 'one platform slot, handed from grant to grant');
        assert.equal(
          (await grants()).find((r) => r.key === botA),
          undefined,
          'bot A is free',
        );
        assert.equal(
          (await other.tryAcquire([{ key: botA, limit: 1 }])).granted,
          true,
          'and another instance sees it',
        );
        // The other instance takes the platform's second slot; a third is refused everywhere.
        const second = await other.tryAcquire([{ key: platform, limit: 2 }]);
        assert.equal(second.granted, true);
        const refused = await here.tryAcquire([{ key: platform, limit: 2 }]);
        assert.equal(refused.granted, false, 'two slots in all');
        // Given back with nobody here to take them: written free after a short wait.
        await b.grant.release();
        assert.equal(platformRows(await grants()), 1, 'only the other instance’s');
      } finally {
        await instances.close();
      }
    });

    test('a slot whose row ran out while held here is never handed on', async () => {
      const harness = await startServices('postgres', {}, 1);
      const db = harness.contexts[0]!.db;
      // A short lease: renewals every 100 ms.
      const store = new DatabaseLimitStore(db, { leaseMs: 300 });
      const key = `gone-${crypto.randomUUID()}`;
      const rows = async () =>
        rowsOf<{ n: number }>(
          await db.execute(sql`SELECT count(*)::int AS n FROM publish_limit_grants WHERE key = ${key}`),
        )[0]!.n;
      try {
        const held = await store.tryAcquire([{ key, limit: 1 }]);
        assert.ok(held.granted);
        // Its renewals did not land in time: the lease ran out and another instance cleaned it.
        await db.execute(sql`DELETE FROM publish_limit_grants WHERE key = ${key}`);
        await sleep(250);
        const released = held.grant.release();
        const next = store.tryAcquire([{ key, limit: 1 }]);
        assert.ok(next instanceof Promise, 'asked the database, not handed on');
        assert.equal((await next).granted, true);
        await released;
        assert.equal(await rows(), 1, 'one slot counted: the new one');
      } finally {
        await store.close();
        await harness.stop();
      }
    });

    test('a refusal gives back the idle slots it took; closing frees every slot held or idle', async () => {
      const instances = await twoInstances(30_000);
      const [here, other] = instances.stores as [DatabaseLimitStore, DatabaseLimitStore];
      const platform = `platform-${crypto.randomUUID()}`;
      const bot = `bot-${crypto.randomUUID()}`;
      try {
        const blocker = await other.tryAcquire([{ key: bot, limit: 1 }]);
        assert.ok(blocker.granted);
        const mine = await here.tryAcquire([{ key: platform, limit: 1 }]);
        assert.ok(mine.granted);
        const released = mine.grant.release();
        // The platform slot is idle here, the bot's is held elsewhere: refused on the bot.
        const refused = await here.tryAcquire([
          { key: platform, limit: 1 },
          { key: bot, limit: 1 },
        ]);
        assert.deepEqual(refused, { granted: false, blockedKey: bot });
        await released;
        assert.equal((await other.tryAcquire([{ key: platform, limit: 1 }])).granted, true, 'written free');
        const held = await here.tryAcquire([{ key: `${platform}-2`, limit: 1 }]);
        assert.ok(held.granted);
        await here.close();
        assert.equal(
          (await other.tryAcquire([{ key: `${platform}-2`, limit: 1 }])).granted,
          true,
          'closing gave it back',
        );
      } finally {
        await instances.close();
      }
    });

    test('one call counts the grants it makes: in order, all or none, a rate refused with its wait', async () => {
      const harness = await startServices('postgres', {}, 1);
      const db = harness.contexts[0]!.db;
      try {
        const slot = `s-${crypto.randomUUID()}`;
        const rate = `r-${crypto.randomUUID()}`;
        const both = [
          { k: slot, n: 2, w: null },
          { k: rate, n: 3, w: 60_000 },
        ];
        const answers = await acquireLimits(db, [both, both, both, [{ k: rate, n: 3, w: 60_000 }]], 30_000);
        assert.ok('g' in answers[0]! && 'g' in answers[1]!);
        assert.deepEqual(answers[2], { b: slot, r: null }, 'the slot key is full after two');
        // The refused third took nothing: the rate still has one grant left for the fourth.
        assert.ok('g' in answers[3]!);
        const [refused] = await acquireLimits(db, [[{ k: rate, n: 3, w: 60_000 }]], 30_000);
        assert.ok(refused && 'b' in refused && refused.b === rate);
        assert.ok(refused.r !== null && refused.r > 59_000 && refused.r <= 60_000, `r ${refused.r}`);
        const first = (answers[0] as { g: string }).g;
        const [released] = await acquireLimits(db, [[{ k: slot, n: 2, w: null }]], 30_000, [
          { grantId: first, key: slot },
        ]);
        assert.ok(released && 'g' in released, 'a slot released in the same call is free for it');
        // Slots go back by key: the first grant's rate row is not a slot, and stays.
        const left = await db.execute(
          sql`SELECT key, kind FROM publish_limit_grants WHERE grant_id = ${first}::uuid ORDER BY key`,
        );
        assert.deepEqual(rowsOf(left), [{ key: rate, kind: 'rate' }]);
      } finally {
        await harness.stop();
      }
    });

    test('the grants’ table is vacuumed once enough grants came and went, beside the calls', async () => {
      const harness = await startServices('postgres', {}, 1);
      const db = harness.contexts[0]!.db;
      const store = new DatabaseLimitStore(db, { leaseMs: 30_000, vacuumAfterRows: 20 });
      const vacuums = async () =>
        rowsOf<{ n: number }>(
          await db.execute(
            sql`SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'publish_limit_grants'`,
          ),
        )[0]?.n ?? 0;
      try {
        const before = await vacuums();
        const key = `v-${crypto.randomUUID()}`;
        // Each grant is a row written and, once released, deleted: 12 grants and 12 releases.
        for (let i = 0; i < 12; i++) {
          const attempt = await store.tryAcquire([{ key, limit: 1 }]);
          assert.ok(attempt.granted);
          await attempt.grant.release();
        }
        const deadline = Date.now() + 10_000;
        while ((await vacuums()) === before && Date.now() < deadline) await sleep(100);
        assert.ok((await vacuums()) > before, 'vacuumed');
        const again = await store.tryAcquire([{ key, limit: 1 }]);
        assert.ok(again.granted, 'acquisitions go on');
      } finally {
        await store.close();
        await harness.stop();
      }
    });

    test('slots of an instance that stopped renewing free themselves; a live holder keeps its own', async () => {
      const instances = await twoInstances(1000);
      const [live, other] = instances.stores as [DatabaseLimitStore, DatabaseLimitStore];
      try {
        // A dead instance: it took a slot with a 1 s lease and never renewed it.
        const [answer] = await acquireLimits(instances.db, [[{ k: 'dead', n: 1, w: null }]], 1000);
        assert.ok(answer && 'g' in answer);
        const held = await live.tryAcquire([{ key: 'held', limit: 1 }]);
        assert.equal(held.granted, true);
        assert.equal((await other.tryAcquire([{ key: 'dead', limit: 1 }])).granted, false);
        await sleep(1600);
        assert.equal(
          (await other.tryAcquire([{ key: 'dead', limit: 1 }])).granted,
          true,
          'the dead slot ran out',
        );
        assert.equal(
          (await other.tryAcquire([{ key: 'held', limit: 1 }])).granted,
          false,
          'renewed while held',
        );
      } finally {
        await instances.close();
      }
    });
  });
}
