/**
 * `GET /api/v1/posts` page latency over HTTP against the production build, on PostgreSQL, with
 * 1,000,000 posts in the table (bulk-inserted with generate_series, all one user's: the worst
 * case for that user's pages). Reports p50/p95 for the first page, deep keyset pages and a status
 * filter. Target: p95 <= 20 ms.
 */
import pg from 'pg';
import { buildIfStale } from '../web/scripts/next-build.ts';
import { startApp } from '../web/test/helpers/app.ts';
import { userWithToken } from '../web/test/helpers/client.ts';

const postCount = Number(process.env.BENCH_POSTS ?? 1_000_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 300);

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
await buildIfStale();
const app = await startApp('postgres', { LOG_LEVEL: 'error' });
try {
  const { api, user } = await userWithToken(app.url, 'bench');
  const db = new pg.Client({ connectionString: app.databaseUrl! });
  await db.connect();
  const insertStarted = performance.now();
  await db.query(
    `INSERT INTO posts (id, user_id, workspace_id, status, message, account_ids, media, account_options, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, (SELECT current_workspace_id FROM users WHERE id = $1::uuid), (ARRAY['draft','scheduled','posted','failed'])[1 + g % 4],
       'Bench post ' || g, '[]'::jsonb, '[]'::jsonb, '{}'::jsonb, t.at, t.at
     FROM generate_series(1, $2::int) AS g,
       LATERAL (SELECT date_trunc('milliseconds', now() - make_interval(secs => g)) AS at) AS t`,
    [user.id, postCount],
  );
  await db.query('ANALYZE posts');
  await db.end();
  console.log(`inserted ${postCount} posts in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s`);

  async function measure(label: string, path: () => string | Promise<string>) {
    for (let i = 0; i < 20; i++) await api.json(await path()); // warm up
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const url = await path();
      const started = performance.now();
      const res = await api.json(url);
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    console.log(`${label}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${requests} requests)`);
  }

  await measure('first page (limit 50)', () => '/api/v1/posts?limit=50');
  let cursor: string | null = null;
  await measure('next pages by cursor (limit 50)', async () => {
    const url = `/api/v1/posts?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    cursor = (await api.json(url)).body.nextCursor;
    return `/api/v1/posts?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
  });
  await measure('status=failed, limit 200', () => '/api/v1/posts?status=failed&limit=200');
} finally {
  await app.stop();
}
