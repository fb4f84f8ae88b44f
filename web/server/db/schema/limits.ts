import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

export const limitGrantKinds = ['slot', 'rate'] as const;

export type LimitGrantKind = (typeof limitGrantKinds)[number];

/**
 * Publish limits shared by every instance on PostgreSQL (docs/dispatch.md): one row per key of a live
 * grant. A `slot` lives until released or until its lease runs out (renewed while held, so a dead
 * instance's slots free themselves); a `rate` row lives its window. `postwave_acquire_limits()`
 * (in the migration) checks and takes a batch of grants in one round trip.
 */
export const publishLimitGrants = pgTable(
  'publish_limit_grants',
  {
    grantId: uuid('grant_id').notNull(),
    key: text('key').notNull(),
    kind: text('kind').$type<LimitGrantKind>().notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.grantId, t.key] }),
    index('publish_limit_grants_key').on(t.key, t.expiresAt),
  ],
);
