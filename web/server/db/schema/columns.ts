import { timestamp } from 'drizzle-orm/pg-core';

/**
 * Timestamps are written from JavaScript (millisecond precision) wherever they take part in
 * keyset pagination, so a cursor round-trips exactly.
 */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
