import { eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { type AccountHealth, accounts } from '#server/db/schema.ts';
import type { AccountRow } from './repository.ts';

/** The only SQL of account health checks: claiming accounts due for a check and recording results. */

/**
 * Takes up to `limit` working accounts whose last check is older than `staleBefore` (or never
 * ran) and holds them until `leaseUntil`. SKIP LOCKED and the lease let several instances sweep
 * at once without checking the same account twice; an instance that dies mid-check frees its
 * accounts when the lease runs out.
 */
export async function claimAccountsDueForCheck(
  ctx: AppContext,
  input: { limit: number; staleBefore: Date; leaseUntil: Date; now: Date },
): Promise<AccountRow[]> {
  const claimed = await ctx.db.execute(sql`
    WITH due AS (
      SELECT id FROM accounts
      WHERE status = 'active'
        AND (health_checked_at IS NULL OR health_checked_at <= ${input.staleBefore.toISOString()}::timestamptz)
        AND (health_lease_until IS NULL OR health_lease_until <= ${input.now.toISOString()}::timestamptz)
      ORDER BY health_checked_at NULLS FIRST, id
      LIMIT ${input.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE accounts AS a SET health_lease_until = ${input.leaseUntil.toISOString()}::timestamptz
    FROM due WHERE a.id = due.id
    RETURNING a.id`);
  const ids = rowsOf<{ id: string }>(claimed).map((r) => r.id);
  if (ids.length === 0) return [];
  return ctx.db.select().from(accounts).where(inArray(accounts.id, ids));
}

export interface HealthChange {
  /** The account after the change. */
  row: AccountRow;
  /** What it was before this statement: a concurrent writer's change is seen by exactly one of them. */
  previous: AccountHealth;
}

/**
 * Records a check's finding and frees the lease, returning the health it replaced. The row lock
 * taken by the CTE orders concurrent writers (a check and a failed publish), so each transition
 * into a state is reported by one writer only and a notification goes out once per change.
 */
export async function recordHealth(
  ctx: AppContext,
  accountId: string,
  set: {
    health: AccountHealth;
    reason: string | null;
    checkedAt?: Date;
    status?: AccountRow['status'];
  },
): Promise<HealthChange | undefined> {
  const checked = set.checkedAt ? sql`${set.checkedAt.toISOString()}::timestamptz` : sql`a.health_checked_at`;
  const status = set.status ? sql`${set.status}` : sql`a.status`;
  const result = await ctx.db.execute(sql`
    WITH old AS (SELECT id, health FROM accounts WHERE id = ${accountId} FOR UPDATE)
    UPDATE accounts AS a
    SET health = ${set.health}, health_reason = ${set.reason}, health_checked_at = ${checked},
      health_lease_until = NULL, status = ${status}, updated_at = ${new Date().toISOString()}::timestamptz
    FROM old WHERE a.id = old.id
    RETURNING a.id, old.health AS previous`);
  const [changed] = rowsOf<{ id: string; previous: AccountHealth }>(result);
  if (!changed) return undefined;
  const [row] = await ctx.db.select().from(accounts).where(eq(accounts.id, accountId));
  return row ? { row, previous: changed.previous } : undefined;
}

/** Frees a claimed account without recording anything (the check was skipped). */
export async function releaseHealthLease(
  ctx: AppContext,
  accountId: string,
  checkedAt: Date | null,
): Promise<void> {
  await ctx.db
    .update(accounts)
    .set({ healthLeaseUntil: null, healthCheckedAt: checkedAt })
    .where(eq(accounts.id, accountId));
}
