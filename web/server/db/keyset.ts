import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A row's place in a (createdAt, id) order: what a page cursor carries. Timestamps that take part
 * are written from JavaScript (millisecond precision, see db/schema.ts), so a position round-trips
 * exactly; the row comparison is one index range scan on (…, created_at, id).
 */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

/** Rows after `position` in descending order (a newest-first page continues here). */
export function keysetBefore(createdAt: PgColumn, id: PgColumn, position: KeysetPosition): SQL {
  return sql`(${createdAt}, ${id}) < (${position.createdAt.toISOString()}::timestamptz, ${position.id}::uuid)`;
}

/** Rows after `position` in ascending order (an oldest-first page continues here). */
export function keysetAfter(createdAt: PgColumn, id: PgColumn, position: KeysetPosition): SQL {
  return sql`(${createdAt}, ${id}) > (${position.createdAt.toISOString()}::timestamptz, ${position.id}::uuid)`;
}
