import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { rowsOf } from '#server/db/access.ts';
import { openDatabase } from '#server/db/client.ts';
import { executePrepared } from '#server/db/prepared.ts';
import { backends, createPostgresDatabase } from '../../helpers/databases.ts';

const doubled = (n: number) => sql`SELECT ${n}::integer * 2 AS doubled`;

describe('executePrepared', () => {
  test('runs the statement on PGlite as execute does', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'postwave-prepared-'));
    const handle = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      assert.deepEqual(rowsOf(await executePrepared(handle.db, doubled(21))), [{ doubled: 42 }]);
    } finally {
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  if (backends().includes('postgres')) {
    for (const preparedStatements of [true, false]) {
      test(`PostgreSQL ${preparedStatements ? 'keeps one named statement per text' : 'with DATABASE_PREPARED_STATEMENTS=false names none'}`, async () => {
        const database = await createPostgresDatabase();
        // One connection, so what it keeps is what the next query on the pool sees.
        const handle = await openDatabase({
          databaseUrl: database.url,
          dataDir: '',
          poolSize: 1,
          preparedStatements,
        });
        try {
          for (const n of [1, 2, 3]) {
            assert.deepEqual(rowsOf(await executePrepared(handle.db, doubled(n))), [{ doubled: n * 2 }]);
          }
          const kept = rowsOf<{ name: string }>(
            await handle.db.execute(sql`SELECT name FROM pg_prepared_statements WHERE name LIKE 'pw\_%'`),
          );
          assert.equal(kept.length, preparedStatements ? 1 : 0, JSON.stringify(kept));
        } finally {
          await handle.close();
          await database.drop();
        }
      });
    }
  }
});
