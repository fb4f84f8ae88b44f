import type { Database } from './client.ts';

/** A database or a transaction: whatever can run a repository's statements. */
export type Db = { db: Database };

/** `execute()` results: node-postgres and PGlite both expose `rows`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A timestamp column of a raw `execute()` row (a Date, a string, or null) as a Date or null. */
export const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

/** Runs `work` in one transaction (a savepoint when `ctx` is a transaction already). */
export async function inTransaction<T>(ctx: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => work({ db: tx as unknown as Database }));
}
