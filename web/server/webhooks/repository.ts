import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '#server/db/access.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import {
  users,
  type WebhookDeliveryStatus,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
  workspaceMembers,
} from '#server/db/schema.ts';

/** The only SQL for webhook endpoints, their deliveries and the delivery log. */

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

/** The channel every instance LISTENs on: a delivery became due (NOTIFY is sent on commit). */
export const webhookChannel = 'postwave_webhooks';

export async function endpointsOf(ctx: Db, workspaceId: string): Promise<EndpointRow[]> {
  return ctx.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function findEndpoint(
  ctx: Db,
  workspaceId: string,
  id: string,
): Promise<EndpointRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)));
  return row;
}

export async function insertEndpoint(
  ctx: Db,
  values: typeof webhookEndpoints.$inferInsert,
): Promise<EndpointRow> {
  const [row] = await ctx.db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(
  ctx: Db,
  workspaceId: string,
  id: string,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<EndpointRow | undefined> {
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set(values)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
    .returning();
  return row;
}

/** Deletes the workspace's endpoint; the deleted row, or undefined when there was none. */
export async function deleteEndpoint(
  ctx: Db,
  workspaceId: string,
  id: string,
): Promise<EndpointRow | undefined> {
  const [row] = await ctx.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
    .returning();
  return row;
}

/** Whether any enabled endpoint of the user takes one of these events (skips building unwanted payloads). */
export async function hasSubscriber(
  ctx: Db,
  workspaceId: string,
  types: readonly string[],
): Promise<boolean> {
  const anyOf = sql.join(
    types.map((t) => sql`events @> ${JSON.stringify([t])}::jsonb`),
    sql` OR `,
  );
  const result = await ctx.db.execute(sql`
    SELECT 1 FROM webhook_endpoints
    WHERE workspace_id = ${workspaceId} AND disabled_at IS NULL AND (${anyOf})
    LIMIT 1`);
  return rowsOf(result).length > 0;
}

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

/**
 * Turns the endpoint off if it is still on and has been failing since before `failingBefore`;
 * returns its owner's e-mail for the notice only when this call disabled it.
 */
export async function disableFailingEndpoint(
  ctx: Db,
  endpointId: string,
  failingBefore: Date,
  at: Date,
  reason: string,
): Promise<{ endpoint: EndpointRow; emails: string[] } | undefined> {
  const [endpoint] = await ctx.db
    .update(webhookEndpoints)
    .set({ disabledAt: at, disabledReason: reason, updatedAt: at })
    .where(
      and(
        eq(webhookEndpoints.id, endpointId),
        isNull(webhookEndpoints.disabledAt),
        lt(webhookEndpoints.failingSince, failingBefore),
      ),
    )
    .returning();
  if (!endpoint) return undefined;
  // The workspace's owners and admins: who may turn it on again (docs/workspaces.md#roles).
  const managers = await ctx.db
    .select({ email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, endpoint.workspaceId),
        inArray(workspaceMembers.role, ['owner', 'admin']),
      ),
    );
  return { endpoint, emails: managers.map((m) => m.email) };
}

/** A page of one endpoint's deliveries, newest first, each with its attempts. */
export async function deliveriesOf(
  ctx: Db,
  endpointId: string,
  options: {
    status?: WebhookDeliveryStatus | undefined;
    limit: number;
    after?: KeysetPosition;
  },
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }[]> {
  const { after } = options;
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        options.status ? eq(webhookDeliveries.status, options.status) : undefined,
        after ? keysetBefore(webhookDeliveries.createdAt, webhookDeliveries.id, after) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(options.limit);
  return withAttempts(ctx, rows);
}

export async function findDelivery(
  ctx: Db,
  endpointId: string,
  deliveryId: string,
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] } | undefined> {
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  return (await withAttempts(ctx, rows))[0];
}

async function withAttempts(ctx: Db, rows: DeliveryRow[]) {
  if (rows.length === 0) return [];
  const attempts = await ctx.db
    .select()
    .from(webhookDeliveryAttempts)
    .where(
      inArray(
        webhookDeliveryAttempts.deliveryId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(desc(webhookDeliveryAttempts.attemptedAt), desc(webhookDeliveryAttempts.id));
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return rows.map((delivery) => ({ delivery, attempts: byDelivery.get(delivery.id) ?? [] }));
}

/**
 * Queues a delivery again, at once and with the retry schedule from the start (a redelivery
 * keeps its `webhook-id`). A delivery being sent right now (leased) is left alone: false.
 */
export async function requeueDelivery(ctx: Db, endpointId: string, deliveryId: string, at: Date) {
  const [row] = await ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: at, retries: 0, leaseOwner: null, leaseExpiresAt: null })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpointId, endpointId),
        or(isNull(webhookDeliveries.leaseExpiresAt), lt(webhookDeliveries.leaseExpiresAt, at)),
      ),
    )
    .returning();
  if (row) await notifyDue(ctx, at);
  return row;
}

/** Deletes finished deliveries (and their attempts) created before `before`; returns how many. */
export async function pruneDeliveries(ctx: Db, before: Date): Promise<number> {
  const rows = await ctx.db
    .delete(webhookDeliveries)
    .where(and(sql`${webhookDeliveries.status} <> 'pending'`, lt(webhookDeliveries.createdAt, before)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
