/**
 * Exactly once across crashes, over real processes (the small version of bench/scheduler-kill):
 * two dispatcher processes (`web/scripts/dispatcher.ts`) on PostgreSQL publish due posts to a
 * fake Mastodon (dedupes by Idempotency-Key: resumed) and a fake Telegram (no dedupe: unknown);
 * one is killed with SIGKILL mid-run and replaced. Nothing is sent twice, nothing is lost, and
 * every target ends posted, failed or unknown. PostgreSQL only: PGlite is one process's database.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type FakeMastodon,
  type FakeTelegram,
  startFakeMastodon,
  startFakeTelegram,
} from '@postwave/shared/testing';
import { sql } from 'drizzle-orm';
import { saveAccount } from '#server/accounts/save-account.ts';
import type { AppContext } from '#server/context.ts';
import { posts } from '#server/db/schema.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

const postCount = 300;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

for (const backend of backends().filter((b) => b === 'postgres')) {
  describe(`dispatcher processes killed mid-run (${backend})`, () => {
    let telegram: FakeTelegram;
    let mastodon: FakeMastodon;
    let harness: ServiceHarness;
    let ctx: AppContext;
    const children: ChildProcess[] = [];

    before(async () => {
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News' } },
      });
      mastodon = await startFakeMastodon({ tokens: { 'crash-token': { username: 'poster' } } });
      harness = await startServices(backend, {
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(mastodon.url).host,
      });
      ctx = harness.ctx;
    });
    after(async () => {
      for (const child of children) child.kill('SIGKILL');
      await harness?.stop();
      await telegram?.close();
      await mastodon?.server.close();
    });

    function startDispatcher(): Promise<ChildProcess> {
      const child = fork(join(import.meta.dirname, '..', '..', '..', 'scripts', 'dispatcher.ts'), [], {
        env: {
          ...process.env,
          DATA_DIR: ctx.config.dataDir,
          DATABASE_URL: ctx.config.databaseUrl!,
          MIGRATIONS_DIR: ctx.config.migrationsDir,
          TELEGRAM_API_URL: telegram.url,
          ALLOW_PRIVATE_HOSTS: new URL(mastodon.url).host,
          LOG_LEVEL: 'silent',
          DISPATCH_LEASE_MS: '4000',
          DISPATCHER_INTERVAL_MS: '500',
        },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      children.push(child);
      return new Promise((resolve, reject) => {
        child.once('message', () => resolve(child));
        child.once('exit', (code) => reject(new Error(`dispatcher exited with ${code}`)));
      });
    }

    test('SIGKILL mid-run: no duplicates, nothing lost, every target posted, failed or unknown', async () => {
      const user = await signUpWithWorkspace(ctx, {
        email: 'crash@example.com',
        password: 'long enough password',
      });
      const news = (
        await saveAccount(ctx, user.id, {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
          profile: { name: 'News' },
        })
      ).account.id;
      const toot = (
        await saveAccount(ctx, user.id, {
          platform: 'mastodon',
          platformAccountId: 'poster',
          credentials: { instanceUrl: mastodon.url, accessToken: 'crash-token' },
          profile: { name: 'Poster' },
        })
      ).account.id;
      const [first] = await Promise.all([startDispatcher(), startDispatcher()]);

      const now = new Date();
      const rows = Array.from({ length: postCount }, (_, i) => ({
        id: crypto.randomUUID(),
        workspaceId: user.id,
        status: 'scheduled' as const,
        message: `crash ${i}`,
        accountIds: i % 2 === 0 ? [news] : [toot],
        media: [],
        accountOptions: {},
        scheduledAt: now,
        nextAttemptAt: now,
        createdAt: new Date(now.getTime() + i),
        updatedAt: new Date(now.getTime() + i),
      }));
      await ctx.db.insert(posts).values(rows);
      await announceDue(ctx, now);

      // Kill as soon as sends are flowing, then bring a replacement up.
      const sends = () => telegram.sent.length + mastodon.statuses.length;
      const deadline = Date.now() + 30_000;
      while (sends() < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      first!.kill('SIGKILL');
      await startDispatcher();

      const remaining = async () =>
        rowsOf<{ n: number }>(
          await ctx.db.execute(sql`SELECT count(*)::int AS n FROM posts WHERE status = 'scheduled'`),
        )[0]!.n;
      const end = Date.now() + 60_000;
      while ((await remaining()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
      assert.equal(await remaining(), 0, 'every post finished');

      const targets = rowsOf<{ message: string; platform: string; status: string }>(
        await ctx.db.execute(sql`
          SELECT p.message, t.platform, t.status FROM posts p JOIN post_targets t ON t.post_id = p.id`),
      );
      assert.equal(targets.length, postCount, 'every post has its target recorded');
      for (const t of targets) assert.ok(['posted', 'failed', 'unknown'].includes(t.status), t.status);

      const count = (texts: string[]) => {
        const seen = new Map<string, number>();
        for (const text of texts) seen.set(text, (seen.get(text) ?? 0) + 1);
        return seen;
      };
      const toots = count(mastodon.statuses.map((s) => s.text));
      const messages = count(telegram.sent.map((m) => m.text ?? ''));
      assert.deepEqual(
        [...toots.values()].filter((n) => n > 1),
        [],
        'no Mastodon status twice',
      );
      assert.deepEqual(
        [...messages.values()].filter((n) => n > 1),
        [],
        'no Telegram message twice',
      );
      for (const t of targets) {
        const received = (t.platform === 'mastodon' ? toots : messages).has(t.message);
        if (t.status === 'posted') assert.ok(received, `${t.message} is posted and was received`);
        // Mastodon resends are safe: an interrupted one is never left unknown.
        if (t.platform === 'mastodon') assert.equal(t.status, 'posted', t.message);
      }
    });
  });
}
