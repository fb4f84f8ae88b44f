import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
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

/**
 * Runs `work` in the caller's transaction, or in a new one when there is none. Unlike
 * `inTransaction` it opens no savepoint: rows written keep the transaction's own xid, which
 * `xmin = pg_current_xact_id()` checks (post event actors) rely on.
 */
export async function inSomeTransaction<T>(ctx: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  // `is`, not `instanceof`: the Next build can hold drizzle twice, and a transaction made by one
  // copy is no instance of the other's class (the savepoint then hid the actors' xid).
  return is(ctx.db, PgTransaction) ? work(ctx) : inTransaction(ctx, work);
}

/**
 * Runs independent reads side by side on a pool (each on its own connection), one after another in
 * a transaction: a transaction is one connection, which would only queue them, and pg deprecates
 * a query sent while another is in flight on one client (removed in pg 9).
 */
export async function readAll<T extends readonly unknown[]>(
  ctx: Db,
  reads: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!is(ctx.db, PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
