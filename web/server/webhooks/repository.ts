import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '#server/db/access.ts';
import {
  users,
  type webhookDeliveries,
  type webhookDeliveryAttempts,
  webhookEndpoints,
  workspaceMembers,
} from '#server/db/schema.ts';

/** The SQL for webhook endpoints (deliveries: delivery-queue-repository.ts and delivery-log-repository.ts). */

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

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
