import { and, desc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import { type WebhookDeliveryStatus, webhookDeliveries, webhookDeliveryAttempts } from '#server/db/schema.ts';
import { notifyDue } from './delivery-queue-repository.ts';
import type { AttemptRow, DeliveryRow } from './repository.ts';

/** The SQL of an endpoint's delivery log: its deliveries with their attempts, and redelivery. */

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
