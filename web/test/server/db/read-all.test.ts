import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { inTransaction, readAll, rowsOf } from '#server/db/access.ts';
import { openDatabase } from '#server/db/client.ts';
import { backends, createPostgresDatabase } from '../../helpers/databases.ts';

if (backends().includes('postgres')) {
  describe('readAll (postgres)', () => {
    test('side by side on the pool; one after another in a transaction, with no query sent while one is in flight', async () => {
      const database = await createPostgresDatabase();
      const handle = await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 4 });
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      try {
        // Each read says which session ran it: two at once on a pool take two connections.
        const session = (db: typeof handle.db) => async () =>
          rowsOf<{ pid: number }>(await db.execute(sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`))[0]!
            .pid;
        const pooled = await readAll({ db: handle.db }, [session(handle.db), session(handle.db)] as const);
        assert.notEqual(pooled[0], pooled[1], 'two connections');
        const inOne = await inTransaction({ db: handle.db }, (tx) =>
          readAll(tx, [session(tx.db), session(tx.db), session(tx.db)] as const),
        );
        assert.equal(new Set(inOne).size, 1, 'one connection');
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(
          warnings.filter((w) => w.includes('already executing a query')),
          [],
        );
      } finally {
        process.off('warning', onWarning);
        await handle.close();
        await database.drop();
      }
    });
  });
}
