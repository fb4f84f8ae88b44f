import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#server/db/client.ts';
import { hashSecret } from '#server/security/tokens.ts';
import { startApp } from '../../helpers/app.ts';
import { Client } from '../../helpers/client.ts';
import { backends, createPostgresDatabase, type TestDatabase } from '../../helpers/databases.ts';

const drizzleDir = join(import.meta.dirname, '..', '..', '..', '..', 'drizzle');

/** The migrations folder as it was before workspaces (0019 and earlier). */
function migrationsBeforeWorkspaces(): string {
  const dir = mkdtempSync(join(tmpdir(), 'postwave-migrations-'));
  cpSync(drizzleDir, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  for (const entry of journal.entries.filter((e) => e.idx >= 20)) rmSync(join(dir, `${entry.tag}.sql`));
  journal.entries = journal.entries.filter((e) => e.idx < 20);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const ids = {
  user: crypto.randomUUID(),
  account: crypto.randomUUID(),
  post: crypto.randomUUID(),
  media: crypto.randomUUID(),
  feed: crypto.randomUUID(),
  webhook: crypto.randomUUID(),
  token: crypto.randomUUID(),
};
const token = `pw_${'u'.repeat(43)}`;

for (const backend of backends()) {
  describe(`upgrade to workspaces (${backend})`, () => {
    test('a database from before workspaces keeps everything in a personal workspace; the old token works', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'postwave-upgrade-'));
      const database: TestDatabase | undefined =
        backend === 'postgres' ? await createPostgresDatabase() : undefined;
      const oldMigrations = migrationsBeforeWorkspaces();
      const handle = await openDatabase({ databaseUrl: database?.url, dataDir });
      try {
        await handle.migrate(oldMigrations);
        const now = new Date().toISOString();
        const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
        await handle.db.execute(sql`
          INSERT INTO users (id, email, name, timezone, created_at, updated_at, assistants_must_confirm)
          VALUES (${ids.user}, 'ada@example.com', 'Ada', 'Europe/Berlin', ${now}, ${now}, true)`);
        await handle.db.execute(sql`
          INSERT INTO accounts (id, user_id, platform, platform_account_id, label, credentials, created_at, updated_at)
          VALUES (${ids.account}, ${ids.user}, 'telegram', '@news', 'News', 'v1:opaque', ${now}, ${now})`);
        await handle.db.execute(sql`
          INSERT INTO media (id, user_id, key, filename, content_type, size, storage, created_at)
          VALUES (${ids.media}, ${ids.user}, ${`${ids.user}/a.png`}, 'a.png', 'image/png', 3, 'local', ${now})`);
        await handle.db.execute(sql`
          INSERT INTO posts (id, user_id, status, message, account_ids, media, account_options, created_at, updated_at)
          VALUES (${ids.post}, ${ids.user}, 'draft', 'from before', ${JSON.stringify([ids.account])}::jsonb,
            '[]'::jsonb, '{}'::jsonb, ${now}, ${now})`);
        await handle.db.execute(sql`
          INSERT INTO feeds (id, user_id, url, account_ids, template, mode, interval_minutes, next_poll_at, created_at, updated_at)
          VALUES (${ids.feed}, ${ids.user}, 'https://example.com/feed.xml', ${JSON.stringify([ids.account])}::jsonb,
            '{title}', 'draft', 60, ${later}, ${now}, ${now})`);
        await handle.db.execute(sql`
          INSERT INTO webhook_endpoints (id, user_id, url, events, secret, created_at, updated_at)
          VALUES (${ids.webhook}, ${ids.user}, 'https://example.com/hook', '["post.published"]'::jsonb, 'v1:opaque', ${now}, ${now})`);
        await handle.db.execute(sql`
          INSERT INTO account_queues (account_id, user_id, timezone, slots, updated_at)
          VALUES (${ids.account}, ${ids.user}, 'Europe/Berlin', '[{"weekday":1,"time":"09:00"}]'::jsonb, ${now})`);
        await handle.db.execute(sql`
          INSERT INTO api_tokens (id, user_id, name, kind, token_hash, created_at, expires_at)
          VALUES (${ids.token}, ${ids.user}, 'old token', 'personal', ${hashSecret(token)}, ${now}, ${later})`);
      } finally {
        await handle.close();
        rmSync(oldMigrations, { recursive: true, force: true });
      }

      // The app migrates at start (MIGRATIONS_DIR: every migration, workspaces included).
      const app = await startApp(backend, database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir });
      try {
        const api = new Client(app.url).withToken(token);
        const workspaces = await api.json('/api/v1/workspaces');
        assert.equal(workspaces.status, 200);
        assert.equal(workspaces.body.workspaces.length, 1);
        const [personal] = workspaces.body.workspaces;
        assert.equal(personal.name, "Ada's workspace");
        assert.equal(personal.role, 'owner');
        assert.equal(workspaces.body.currentWorkspaceId, personal.id);

        const accounts = await api.json('/api/v1/accounts');
        assert.equal(accounts.status, 200);
        assert.deepEqual(
          accounts.body.accounts.map((a: { id: string }) => a.id),
          [ids.account],
        );
        const post = await api.json(`/api/v1/posts/${ids.post}`);
        assert.equal(post.status, 200);
        assert.equal(post.body.message, 'from before');
        const feeds = await api.json('/api/v1/feeds');
        assert.deepEqual(
          feeds.body.feeds.map((f: { id: string }) => f.id),
          [ids.feed],
        );
        const hooks = await api.json('/api/v1/webhooks');
        assert.deepEqual(
          hooks.body.webhooks.map((w: { id: string }) => w.id),
          [ids.webhook],
        );
        const queue = await api.json(`/api/v1/accounts/${ids.account}/queue`);
        assert.equal(queue.status, 200);
        assert.equal(queue.body.timezone, 'Europe/Berlin');
        // "Assistants must confirm" moved into the workspace's settings, the time zone too.
        const detail = await api.json(`/api/v1/workspaces/${personal.id}`);
        assert.equal(detail.body.settings.assistantsRequireApproval, true);
        assert.equal(detail.body.settings.timezone, 'Europe/Berlin');
        // The old token is bound to the personal workspace and still creates there.
        const created = await api.json('/api/v1/posts', {
          json: { message: 'after', accountIds: [ids.account], postingMode: 'draft' },
        });
        assert.equal(created.status, 201);
        const list = await api.json('/api/v1/posts');
        assert.equal(list.body.posts.length, 2);
      } finally {
        await app.stop();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
