import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

const dialect = new PgDialect();
/** Statement text → its name; texts are few (arrays per column keep them fixed), but bounded anyway. */
const names = new Map<string, string>();
const maxNames = 256;
/** The pools whose connections keep named statements (see `executePrepared`). */
const preparing = new WeakSet<Database>();

/** Called by `openDatabase` for a PostgreSQL pool whose connections may keep named statements. */
export function prepareStatementsOn(db: Database): void {
  preparing.add(db);
}

type NamedSession = {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    arrayMode: false,
  ): { execute(): Promise<unknown> };
};

/**
 * `db.execute(query)` as a named prepared statement: on PostgreSQL each pooled connection parses
 * and plans it once, then only binds and runs it. For the dispatcher's per-batch statements
 * (intents, limit acquisitions, finalizations: a few fixed texts, thousands of runs) parsing and
 * planning were a fifth of the database's work. The name follows from the text, so a different
 * text never meets a name prepared for another. PGlite runs it as `execute` does.
 *
 * Only for statements that name their result columns: PostgreSQL refuses to run a prepared
 * `RETURNING *` once a migration (another instance's, during a rolling deploy) has added a column.
 * Only on a pool opened with them (`DATABASE_PREPARED_STATEMENTS`, off behind a PgBouncer in
 * transaction mode older than 1.21); a transaction, PGlite or such a pool runs `execute`.
 */
export function executePrepared(db: Database, query: SQL): Promise<unknown> {
  if (!preparing.has(db)) return db.execute(query);
  const built = dialect.sqlToQuery(query);
  let name = names.get(built.sql);
  if (name === undefined) {
    name = `pw_${createHash('sha1').update(built.sql).digest('base64url').slice(0, 20)}`;
    if (names.size < maxNames) names.set(built.sql, name);
  }
  return (db._.session as unknown as NamedSession).prepareQuery(built, undefined, name, false).execute();
}
