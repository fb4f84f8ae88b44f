import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { rowsOf } from '#server/db/access.ts';
import { arrayLiteral } from '#server/db/array-literal.ts';
import { type Database, openDatabase } from '#server/db/client.ts';
import { backends, createPostgresDatabase } from '../../helpers/databases.ts';

/** What the database reads back from the literal, element by element. */
async function roundTrip(db: Database, values: (string | null)[]): Promise<(string | null)[]> {
  const rows = rowsOf<{ values: (string | null)[] }>(
    await db.execute(sql`SELECT ${arrayLiteral(values)}::text[] AS values`),
  );
  return rows[0]!.values;
}

const awkward = [
  '',
  'NULL',
  'null',
  ' spaced ',
  'a,b',
  '{braces}',
  'quote " inside',
  'back\\slash',
  '\\"',
  'é ✓ 🙂',
  '\n\t',
];

for (const backend of backends()) {
  describe(`arrayLiteral (${backend})`, () => {
    test('every element reads back as it was, nulls included, awkward text and random text alike', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'postwave-array-literal-'));
      const database = backend === 'postgres' ? await createPostgresDatabase() : undefined;
      const handle = await openDatabase({ databaseUrl: database?.url, dataDir });
      try {
        assert.deepEqual(await roundTrip(handle.db, [...awkward, null]), [...awkward, null]);
        assert.deepEqual(await roundTrip(handle.db, []), []);
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.option(
                fc.string({ unit: 'grapheme' }).map((s) => s.replaceAll('\u0000', '')),
                { nil: null },
              ),
            ),
            async (values) => assert.deepEqual(await roundTrip(handle.db, values), values),
          ),
          { numRuns: 50 },
        );
      } finally {
        await handle.close();
        await database?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
