import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/**
 * A failed query, without its bound parameters. Drizzle's own error puts every parameter into
 * its message (password hashes, e-mail addresses, credential ciphertexts), and whoever logs or
 * prints the error (our logger, Next.js's console output) would write them out.
 */
export class DatabaseQueryError extends Error {
  override name = 'DatabaseQueryError';
  /** The SQL text with `$1`-style placeholders. */
  readonly query: string;
  /** The SQLSTATE code (e.g. 23505 unique_violation), when the server reported one. */
  readonly code: string | undefined;
  constructor(query: string, cause: unknown) {
    const reason = sanitizedCause(cause);
    super(`Failed query: ${query}${reason ? `\n${reason.message}` : ''}`, { cause: reason });
    this.query = query;
    this.code = reason?.code;
  }
}

/** Fields of a PostgreSQL error that name the problem without quoting the data. */
const safeFields = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'];

type SanitizedCause = Error & { code?: string };

/**
 * The driver's error without `detail` ("Key (email)=(…) already exists"), `where` and quoted
 * values in the message ("invalid input syntax for type uuid: \"…\"").
 */
function sanitizedCause(cause: unknown): SanitizedCause | undefined {
  if (!cause || typeof cause !== 'object') return undefined;
  const source = cause as Record<string, unknown>;
  const message = typeof source.message === 'string' ? redactValues(source.message) : 'Database error';
  const error: SanitizedCause = new Error(message);
  error.name = typeof source.name === 'string' ? source.name : 'Error';
  for (const field of safeFields) {
    if (typeof source[field] === 'string')
      (error as unknown as Record<string, unknown>)[field] = source[field];
  }
  error.stack = `${error.name}: ${message}`;
  return error;
}

export function redactValues(message: string): string {
  return message.replace(/: ".*"\s*$/s, ': "[value removed]"').replace(/\)=\(.*\)/s, ')=([value removed])');
}

const installed = Symbol.for('postwave.parameterFreeQueryErrors');

/**
 * Makes every query error of this drizzle copy a DatabaseQueryError. Patched once on the shared
 * prepared-query base class that both the node-postgres and the PGlite sessions extend.
 */
export function installParameterFreeQueryErrors(): void {
  const proto = PgPreparedQuery.prototype as unknown as Record<PropertyKey, unknown> & {
    queryWithCache(queryString: string, params: unknown[], query: () => Promise<unknown>): Promise<unknown>;
  };
  if (proto[installed]) return;
  const original = proto.queryWithCache;
  proto.queryWithCache = async function (this: unknown, queryString, params, query) {
    try {
      return await original.call(this, queryString, params, query);
    } catch (error) {
      if (error instanceof DatabaseQueryError) throw error;
      const cause = error instanceof Error && 'params' in error ? error.cause : error;
      throw new DatabaseQueryError(queryString, cause);
    }
  };
  proto[installed] = true;
}

/** Whether PostgreSQL's SQLSTATE on `error` or a cause of it is one of `codes` (node-postgres and PGlite alike). */
function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
  }
  return false;
}

/** PostgreSQL's unique_violation, as both node-postgres and PGlite report it. */
export function isUniqueViolation(error: unknown): boolean {
  return hasCode(error, uniqueViolation);
}
const uniqueViolation = new Set(['23505']);

/**
 * PostgreSQL refusing a value the client sent (NUL in text, an unsupported \u0000 in jsonb, a
 * malformed uuid, a value over a column's or an index's size): a 400, never a 500.
 */
export function isInvalidInputError(error: unknown): boolean {
  return hasCode(error, inputErrorCodes);
}
const inputErrorCodes = new Set(['22021', '22P05', '22P02', '22001', '54000']);

/** PostgreSQL's deadlock_detected: of transactions waiting for each other, this one was rolled back. */
export function isDeadlock(error: unknown): boolean {
  return hasCode(error, deadlockDetected);
}
const deadlockDetected = new Set(['40P01']);

/**
 * Runs `statement` (one statement, not in a transaction: a deadlock rolls it back whole, so it
 * may run again) again when PostgreSQL picks it as a deadlock's victim, up to `attempts` times in
 * all. Statements that write rows many writers share (the rollups, the collector's queue) can wait
 * for each other in whatever order their plans meet the rows; the other side goes on, and this
 * one, run again, finds the rows free.
 */
export async function runAgainOnDeadlock<T>(statement: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}
