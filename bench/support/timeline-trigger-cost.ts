/**
 * What the timeline's statement triggers (migration 0020) cost the dispatcher's batched writes:
 * 200 scheduled posts with a `publishing` target each, then EXPLAIN ANALYZE of the targets' and the
 * posts' update to `posted` (as the finalizing statement does) and of a bare INSERT of 200 events,
 * three rounds. `node bench/support/timeline-trigger-cost.ts` (PostgreSQL, DATABASE_URL or local).
 */
import pg from 'pg';
import { posts } from '../../web/server/db/schema.ts';
import { setUp } from './dispatch-setup.ts';

const setup = await setUp('postgres', 'http://127.0.0.1:9', { telegram: 50 });
const client = new pg.Client({ connectionString: setup.env.DATABASE_URL });
await client.connect();
for (let round = 0; round < 3; round++) {
  const now = Date.now();
  const rows = Array.from({ length: 200 }, (_, i) => ({
    id: crypto.randomUUID(),
    workspaceId: setup.workspaceId,
    userId: setup.userId,
    status: 'scheduled' as const,
    message: `m ${i}`,
    accountIds: [setup.telegram[i % 50]!.id],
    media: [],
    accountOptions: {},
    scheduledAt: new Date(now),
    nextAttemptAt: new Date(now),
    createdAt: new Date(),
    updatedAt: new Date(),
  }));
  await setup.ctx.db.insert(posts).values(rows);
  const ids = rows.map((r) => r.id);
  await client.query(
    `INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at) SELECT id, account_ids->>0, 'telegram', 'publishing', 'x', 1, now() FROM posts WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  for (const [label, q] of [
    [
      'targets → posted',
      `EXPLAIN (ANALYZE, FORMAT TEXT) UPDATE post_targets SET status = 'posted', platform_post_id = '1' WHERE post_id = ANY($1::uuid[])`,
    ],
    [
      'events insert alone',
      `EXPLAIN (ANALYZE, FORMAT TEXT) INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, created_at) SELECT gen_random_uuid(), id, workspace_id, user_id, 'system', 'x', '{}'::jsonb, now() FROM posts WHERE id = ANY($1::uuid[])`,
    ],
    [
      'posts → posted',
      `EXPLAIN (ANALYZE, FORMAT TEXT) UPDATE posts SET status = 'posted', posted_at = now(), updated_at = now() WHERE id = ANY($1::uuid[])`,
    ],
  ] as const) {
    const r = await client.query(q, [ids]);
    const lines = r.rows.map((x) => x['QUERY PLAN'] as string);
    console.log(
      round,
      label,
      lines.filter((l) => /Trigger|Execution Time|Insert on|Update on/.test(l)).join(' | '),
    );
  }
}
await client.end();
await setup.close();
