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
