import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '#server/db/access.ts';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '#server/db/schema.ts';
import type { DeliveryRow, EndpointRow } from './repository.ts';

/**
 * The SQL of the delivery queue: events enqueued as one delivery per subscribed endpoint, claimed
 * under a lease by the workers of every instance, attempts recorded, old deliveries pruned.
 */

/** The channel every instance LISTENs on: a delivery became due (NOTIFY is sent on commit). */
export const webhookChannel = 'postwave_webhooks';

export interface NewEvent {
  workspaceId: string;
  type: string;
  messageId: string;
  body: string;
  at: Date;
}

/**
 * One pending delivery per enabled endpoint of the user subscribed to the event, in one
 * statement; then a NOTIFY, which PostgreSQL sends when the surrounding transaction commits
 * (at once outside one), so workers wake exactly when the rows are visible.
 */
export async function enqueueEvent(ctx: Db, event: NewEvent): Promise<number> {
  const at = event.at.toISOString();
  const result = await ctx.db.execute(sql`
    INSERT INTO webhook_deliveries
      (id, endpoint_id, workspace_id, message_id, event_type, body, status, next_attempt_at, created_at)
    SELECT gen_random_uuid(), e.id, e.workspace_id, ${event.messageId}, ${event.type}, ${event.body},
      'pending', ${at}::timestamptz, ${at}::timestamptz
    FROM webhook_endpoints e
    WHERE e.workspace_id = ${event.workspaceId} AND e.disabled_at IS NULL
      AND e.events @> ${JSON.stringify([event.type])}::jsonb
    RETURNING id`);
  const count = rowsOf(result).length;
  if (count > 0) await notifyDue(ctx, event.at);
  return count;
}

export async function notifyDue(ctx: Db, at: Date): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_notify(${webhookChannel}, ${String(at.getTime())})`);
}

/** A delivery to one endpoint that this caller sends itself right away (`POST …/test`): leased to it. */
export async function insertLeasedDelivery(
  ctx: Db,
  values: typeof webhookDeliveries.$inferInsert,
): Promise<DeliveryRow> {
  const [row] = await ctx.db.insert(webhookDeliveries).values(values).returning();
  return row!;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  endpoint: EndpointRow;
}

/**
 * Claims due deliveries of enabled endpoints with a lease, in one statement. SKIP LOCKED lets
 * workers on every instance claim disjoint sets; a worker that dies leaves rows whose lease runs
 * out, and the next claim takes them over (an attempt may then be repeated: receivers
 * deduplicate on `webhook-id`).
 */
export async function claimDueDeliveries(
  ctx: Db,
  owner: string,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const nowIso = now.toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${nowIso}::timestamptz
        AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ${nowIso}::timestamptz)
        AND e.disabled_at IS NULL
      ORDER BY d.next_attempt_at
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE webhook_deliveries AS w
    SET lease_owner = ${owner}, lease_expires_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    FROM due WHERE w.id = due.id
    RETURNING w.id`);
  const ids = rowsOf<{ id: string }>(result).map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(inArray(webhookDeliveries.id, ids));
  return rows;
}

/** When the next pending delivery of an enabled endpoint is due (or its lease runs out), or null. */
export async function earliestDueDelivery(ctx: Db): Promise<Date | null> {
  const result = await ctx.db.execute(sql`
    SELECT (extract(epoch FROM min(greatest(d.next_attempt_at, coalesce(d.lease_expires_at, d.next_attempt_at)))) * 1000)::float8 AS at
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.status = 'pending' AND e.disabled_at IS NULL`);
  const at = rowsOf<{ at: number | string | null }>(result)[0]?.at;
  return at === null || at === undefined ? null : new Date(Number(at));
}

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string;
  owner: string;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  /** What the delivery becomes: delivered, pending again at `nextAttemptAt`, or failed. */
  outcome: { status: 'delivered' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };
}

/**
 * Writes one attempt in one transaction: the log row, the delivery's new state (only while this
 * owner still holds it), and the endpoint's failure run (cleared by a success, started by the
 * first failure). Returns the endpoint's `failingSince` after the attempt.
 */
export async function recordAttempt(ctx: Db, record: AttemptRecord): Promise<{ failingSince: Date | null }> {
  return ctx.db.transaction(async (tx) => {
    await tx.insert(webhookDeliveryAttempts).values({
      id: crypto.randomUUID(),
      deliveryId: record.deliveryId,
      attemptedAt: record.at,
      statusCode: record.statusCode,
      durationMs: record.durationMs,
      error: record.error,
      responseBody: record.responseBody,
    });
    const { outcome } = record;
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        ...(outcome.status === 'pending'
          ? { nextAttemptAt: outcome.nextAttemptAt, retries: sql`${webhookDeliveries.retries} + 1` }
          : { nextAttemptAt: null }),
        ...(outcome.status === 'delivered' ? { deliveredAt: record.at } : {}),
        lastStatusCode: record.statusCode,
        lastError: record.error,
        lastAttemptAt: record.at,
        leaseOwner: null,
        leaseExpiresAt: null,
      })
      .where(
        and(eq(webhookDeliveries.id, record.deliveryId), eq(webhookDeliveries.leaseOwner, record.owner)),
      );
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({
        failingSince:
          outcome.status === 'delivered'
            ? null
            : sql`coalesce(${webhookEndpoints.failingSince}, ${record.at.toISOString()}::timestamptz)`,
      })
      .where(eq(webhookEndpoints.id, record.endpointId))
      .returning({ failingSince: webhookEndpoints.failingSince });
    return { failingSince: endpoint?.failingSince ?? null };
  });
}

/** Gives a claimed delivery back untouched (shutdown before sending it). */
export async function releaseDelivery(ctx: Db, deliveryId: string, owner: string): Promise<void> {
  await ctx.db
    .update(webhookDeliveries)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.leaseOwner, owner)));
}

/** Deletes finished deliveries (and their attempts) created before `before`; returns how many. */
export async function pruneDeliveries(ctx: Db, before: Date): Promise<number> {
  const rows = await ctx.db
    .delete(webhookDeliveries)
    .where(and(sql`${webhookDeliveries.status} <> 'pending'`, lt(webhookDeliveries.createdAt, before)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
