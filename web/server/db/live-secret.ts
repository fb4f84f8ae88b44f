import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * The row of a hashed single-use secret (link, code, token) that still works: this hash, not
 * used or revoked, not expired. Every secret table answers the same question the same way.
 */
export function liveSecret(
  hash: PgColumn,
  ended: PgColumn,
  expires: PgColumn,
  value: string,
  now: Date,
): SQL {
  return and(eq(hash, value), isNull(ended), gt(expires, now)) as SQL;
}
