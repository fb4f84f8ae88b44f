import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';

/**
 * A page answers 404 only for what really does not exist; a server failure (the database) reaches
 * the error boundary, which says the problem is on the server's side (app/error.tsx).
 */
for (const backend of backends()) {
  describe(`post pages: not found versus failed (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('a post that does not exist, is malformed or is another user’s is 404', async () => {
      const owner = await signUp(env.app.url, 'owner');
      const account = await connectTelegram(owner.client);
      const draft = await owner.client.json('/api/v1/posts', {
        json: { message: 'mine', accountIds: [account], postingMode: 'draft' },
      });
      assert.equal(draft.status, 201);
      assert.equal((await owner.client.fetch(`/posts/${draft.body.id}`)).status, 200);
      const stranger = await signUp(env.app.url, 'stranger');
      for (const path of [`/posts/${randomUUID()}`, '/posts/not-a-post', `/posts/${draft.body.id}`]) {
        assert.equal((await stranger.client.fetch(path)).status, 404, path);
        assert.equal((await stranger.client.fetch(`${path}/edit`)).status, 404, `${path}/edit`);
      }
    });

    // An outage can only be staged from outside the server on PostgreSQL (PGlite lives inside it).
    if (backend === 'postgres') {
      test('a database failure while reading the post is an error page saying so, never a 404', async () => {
        const { client } = await signUp(env.app.url, 'outage');
        const account = await connectTelegram(client);
        const draft = await client.json('/api/v1/posts', {
          json: { message: 'while the database fails', accountIds: [account], postingMode: 'draft' },
        });
        const database = new pg.Client({ connectionString: env.app.databaseUrl });
        await database.connect();
        // Sessions still resolve; reading the post's targets fails as in an outage.
        await database.query('ALTER TABLE post_targets RENAME TO post_targets_unavailable');
        try {
          for (const path of [`/posts/${draft.body.id}`, `/posts/${draft.body.id}/edit`]) {
            const response = await client.fetch(path);
            // Next.js answers a page that failed on the server with 500 and its error document,
            // in which the browser renders the error boundary (app/(app)/error.tsx).
            assert.equal(response.status, 500, path);
            assert.match(await response.text(), /<html id="__next_error__"/, path);
          }
        } finally {
          await database.query('ALTER TABLE post_targets_unavailable RENAME TO post_targets');
          await database.end();
        }
        assert.equal((await client.fetch(`/posts/${draft.body.id}`)).status, 200, 'back once it answers');
      });
    }
  });
}
