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

/** PostgreSQL's unique_violation, as both node-postgres and PGlite report it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * PostgreSQL refusing a value the client sent (NUL in text, an unsupported \u0000 in jsonb, a
 * malformed uuid, a value over a column's or an index's size): a 400, never a 500.
 */
const inputErrorCodes = new Set(['22021', '22P05', '22P02', '22001', '54000']);

export function isInvalidInputError(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && inputErrorCodes.has(code)) return true;
  }
  return false;
}
