import { sql } from 'drizzle-orm';
import { rowsOf } from '#server/db/access.ts';
import { arrayLiteral } from '#server/db/array-literal.ts';
import type { Database } from '#server/db/client.ts';
import { executePrepared } from '#server/db/prepared.ts';

/*
 * The only SQL of the shared publish limits: release slots and acquire a batch (one call of the
 * migrations' `postwave_acquire_limits`), release grants, renew slots, forget grants long run out, vacuum the
 * grants' table.
 */

/** One acquisition as the database function reads it: key, limit, window ms (null: a slot). */
export type LimitRow = { k: string; n: number; w: number | null };
export type AcquireAnswer = { g: string } | { b: string; r: number | null };
/** One key's slot of a grant (a grant holds a row per key it was granted on). */
export type SlotRow = { grantId: string; key: string };

/**
 * Acquires a batch, after deleting the slots in `releases` (given back here since the last call):
 * one round trip, and a slot freed here is free for the acquisitions of the same call. With no
 * acquisitions it only gives the slots back. Slots are given back by key (migration 0036), so a
 * grant's other slots may live on with another holder.
 */
export async function acquireLimits(
  db: Database,
  acquisitions: readonly LimitRow[][],
  leaseMs: number,
  releases: readonly SlotRow[] = [],
): Promise<AcquireAnswer[]> {
  const payload = JSON.stringify(acquisitions.map((limits) => ({ limits })));
  const result = await executePrepared(
    db,
    sql`SELECT postwave_acquire_limits(${payload}::jsonb, ${leaseMs}::integer,
      ${arrayLiteral(releases.map((r) => r.grantId))}::uuid[], ${arrayLiteral(releases.map((r) => r.key))}::text[]) AS answers`,
  );
  const answers = rowsOf<{ answers: AcquireAnswer[] | string }>(result)[0]?.answers;
  return typeof answers === 'string' ? (JSON.parse(answers) as AcquireAnswer[]) : (answers ?? []);
}

/**
 * Extends the lease of slots still held, so only a dead instance's slots run out. Answers the
 * slots it found: one missing ran out (this instance could not renew it in time) and was cleaned
 * by another instance, so it is no longer counted.
 */
export async function renewSlots(
  db: Database,
  grantIds: readonly string[],
  leaseMs: number,
): Promise<SlotRow[]> {
  if (grantIds.length === 0) return [];
  const result = await db.execute(sql`
    UPDATE publish_limit_grants
    SET expires_at = clock_timestamp() + make_interval(secs => ${leaseMs}::integer / 1000.0)
    WHERE grant_id = ANY(${arrayLiteral(grantIds)}::uuid[]) AND kind = 'slot'
    RETURNING grant_id::text AS "grantId", key`);
  return rowsOf<SlotRow>(result);
}

/** Gives back every slot of these grants (an instance closing). */
export async function releaseGrants(db: Database, grantIds: readonly string[]): Promise<void> {
  await db.execute(
    sql`DELETE FROM publish_limit_grants WHERE grant_id = ANY(${arrayLiteral(grantIds)}::uuid[]) AND kind = 'slot'`,
  );
}

/** Grants of keys nobody asks for any more are not cleaned by acquisitions: clean them here. */
export async function forgetExpiredGrants(db: Database): Promise<void> {
  await db.execute(
    sql`DELETE FROM publish_limit_grants WHERE expires_at < clock_timestamp() - interval '1 minute'`,
  );
}

/**
 * Clears the grants' table of the rows released and run out since the last pass. Every grant is a
 * row inserted and deleted within seconds, and until a vacuum their dead index entries stay where
 * each acquisition counts its keys' grants: alone on one connection a call grew from 70 to 210 µs
 * of the database's CPU per acquisition over 42,000 of them, and stayed at 37-55 µs with a vacuum
 * every 2,000 rows (about 1.4 ms each). Autovacuum looks at a table at most once a minute, when a
 * busy instance churns hundreds of thousands of rows. SKIP_LOCKED: a vacuum already running
 * (another instance's, autovacuum's) is enough.
 */
export async function vacuumGrants(db: Database): Promise<void> {
  await db.execute(sql`VACUUM (SKIP_LOCKED) publish_limit_grants`);
}
