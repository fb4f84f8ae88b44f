import { randomUUID } from 'node:crypto';
import {
  checkUrl,
  newWebhookSecret,
  ProblemError,
  problem,
  UnsafeUrlError,
  webhookPayload,
} from '@postwave/shared';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import { decodeCursor, keysetPage } from '#server/http/cursor.ts';
import { isUuid } from '#server/http/ids.ts';
import { validationFailed } from '#server/http/problems.ts';
import { notFound } from '#server/http/respond.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import {
  attemptDelivery,
  decryptSecret,
  deliveryLeaseMs,
  encryptPreviousSecret,
  encryptSecret,
} from './delivery.ts';
import * as deliveryLog from './delivery-log-repository.ts';
import { insertLeasedDelivery } from './delivery-queue-repository.ts';
import * as repo from './repository.ts';
import type { DeliveryListOptions, WebhookDeliveryView, WebhookPatch, WebhookView } from './schema.ts';
import { wakeWebhookWorker } from './wakeups.ts';

/** After a rotation the old secret keeps signing (beside the new) for this long. */
export const rotationOverlapMs = 24 * 60 * 60 * 1000;

export function toWebhookView(row: repo.EndpointRow, now = new Date()): WebhookView {
  const overlapping = row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.disabledAt === null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: overlapping ? row.previousSecretExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function ownedEndpoint(ctx: AppContext, workspaceId: string, id: string): Promise<repo.EndpointRow> {
  const row = isUuid(id) ? await repo.findEndpoint(ctx, workspaceId, id) : undefined;
  if (!row) throw notFound('webhook');
  return row;
}

/**
 * Endpoints are user-chosen URLs: checked now against the SSRF rules (https on 443 to a public
 * address, unless ALLOW_PRIVATE_HOSTS lists the host), and again by the safe fetch on every send.
 */
async function assertDeliverable(ctx: AppContext, url: string): Promise<string> {
  try {
    const { url: parsed } = await checkUrl(url, { allowPrivateHosts: ctx.config.allowPrivateHosts });
    return parsed.toString();
  } catch (error) {
    if (error instanceof UnsafeUrlError)
      throw validationFailed('The webhook URL cannot be used', [
        { path: 'url', code: error.code, message: error.message },
      ]);
    throw error;
  }
}

export async function listWebhooks(ctx: AppContext, workspaceId: string): Promise<WebhookView[]> {
  const now = new Date();
  return (await repo.endpointsOf(ctx, workspaceId)).map((row) => toWebhookView(row, now));
}

export async function getWebhook(ctx: AppContext, workspaceId: string, id: string): Promise<WebhookView> {
  return toWebhookView(await ownedEndpoint(ctx, workspaceId, id));
}

/** Creates an endpoint; its `whsec_…` secret is returned only here (and by a rotation). */
export async function createWebhook(
  ctx: AppContext,
  workspaceId: string,
  input: { url: string; events: string[]; description?: string | undefined },
  actor: AuditActor = systemActor,
): Promise<WebhookView & { secret: string }> {
  const url = await assertDeliverable(ctx, input.url);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const now = new Date();
  // The endpoint and its `webhook.created` entry commit together (never the secret).
  const row = await inTransaction(ctx, async (tx) => {
    const created = await repo.insertEndpoint(tx, {
      id,
      workspaceId,
      url,
      description: input.description || null,
      events: input.events,
      secret: encryptSecret(ctx, id, secret),
      createdAt: now,
      updatedAt: now,
    });
    await auditWebhook(tx, created, actor, 'webhook.created');
    return created;
  });
  return { ...toWebhookView(row, now), secret };
}

export async function updateWebhook(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookView> {
  const current = await ownedEndpoint(ctx, workspaceId, id);
  const now = new Date();
  const url = patch.url !== undefined ? await assertDeliverable(ctx, patch.url) : undefined;
  const enabling = patch.enabled === true && current.disabledAt !== null;
  const row = await repo.updateEndpoint(ctx, workspaceId, id, {
    ...(url !== undefined ? { url } : {}),
    ...(patch.events !== undefined ? { events: patch.events } : {}),
    ...(patch.description !== undefined ? { description: patch.description || null } : {}),
    // Turning it on starts the failure count over; turning it off pauses its deliveries.
    ...(enabling ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
    ...(patch.enabled === false && current.disabledAt === null
      ? { disabledAt: now, disabledReason: 'Turned off by its owner.' }
      : {}),
    updatedAt: now,
  });
  if (!row) throw notFound('webhook');
  if (enabling) wakeWebhookWorker(now);
  return toWebhookView(row, now);
}

export async function deleteWebhook(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  actor: AuditActor = systemActor,
): Promise<void> {
  if (!isUuid(id)) throw notFound('webhook');
  await inTransaction(ctx, async (tx) => {
    const deleted = await repo.deleteEndpoint(tx, workspaceId, id);
    if (!deleted) throw notFound('webhook');
    await auditWebhook(tx, deleted, actor, 'webhook.deleted');
  });
}

/**
 * An endpoint's audit entry: the host it sends to and which events. Not the whole URL: receivers
 * often carry a secret in the path or query.
 */
function auditWebhook(
  tx: Db,
  row: repo.EndpointRow,
  actor: AuditActor,
  action: 'webhook.created' | 'webhook.deleted',
): Promise<void> {
  return recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor,
    action,
    target: { type: 'webhook', id: row.id },
    details: { host: hostOf(row.url), events: row.events },
  });
}

/**
 * A new secret, returned once. The old one keeps signing beside it for 24 hours (both
 * signatures in `webhook-signature`), so receivers can switch without missing a delivery.
 */
export async function rotateWebhookSecret(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<WebhookView & { secret: string }> {
  const current = await ownedEndpoint(ctx, workspaceId, id);
  const now = new Date();
  const secret = newWebhookSecret();
  const row = await repo.updateEndpoint(ctx, workspaceId, id, {
    secret: encryptSecret(ctx, id, secret),
    previousSecret: encryptPreviousSecret(ctx, id, decryptSecret(ctx, current)),
    previousSecretExpiresAt: new Date(now.getTime() + rotationOverlapMs),
    updatedAt: now,
  });
  if (!row) throw notFound('webhook');
  return { ...toWebhookView(row, now), secret };
}

/**
 * Sends a `webhook.test` event to this endpoint now (even when it is turned off, to check it
 * before turning it on) and answers with the delivery after its first attempt. A failed test
 * is retried on the schedule like any delivery, except to a turned-off endpoint (then it is failed).
 */
export async function sendTestEvent(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await ownedEndpoint(ctx, workspaceId, id);
  const now = new Date();
  const owner = `test:${randomUUID()}`;
  const body = JSON.stringify(
    webhookPayload(
      'webhook.test',
      { webhookId: endpoint.id, message: 'A test event from Postwave: your endpoint is set up.' },
      now,
    ),
  );
  const delivery = await insertLeasedDelivery(ctx, {
    id: randomUUID(),
    endpointId: endpoint.id,
    workspaceId,
    messageId: `msg_${randomUUID()}`,
    eventType: 'webhook.test',
    body,
    status: 'pending',
    nextAttemptAt: now,
    leaseOwner: owner,
    leaseExpiresAt: new Date(now.getTime() + deliveryLeaseMs),
    createdAt: now,
  });
  // A turned-off endpoint's retries would wait for the switch and then send a stale test: its
  // test gets the one attempt the caller watches.
  const schedule = endpoint.disabledAt === null ? ctx.config.webhooks.retrySchedule : [];
  await trackWork(attemptDelivery(ctx, { delivery, endpoint }, { owner, schedule }));
  if (endpoint.disabledAt === null) wakeWebhookWorker();
  return deliveryView(ctx, endpoint.id, delivery.id);
}

async function deliveryView(
  ctx: AppContext,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const found = await deliveryLog.findDelivery(ctx, endpointId, deliveryId);
  if (!found) throw notFound('delivery');
  return toDeliveryView(found);
}

function toDeliveryView({
  delivery,
  attempts,
}: {
  delivery: repo.DeliveryRow;
  attempts: repo.AttemptRow[];
}): WebhookDeliveryView {
  return {
    id: delivery.id,
    webhookId: delivery.endpointId,
    messageId: delivery.messageId,
    eventType: delivery.eventType as WebhookDeliveryView['eventType'],
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    payload: JSON.parse(delivery.body),
    attemptLog: attempts.map((a) => ({
      attemptedAt: a.attemptedAt.toISOString(),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      responseBody: a.responseBody,
    })),
  };
}

/** The delivery log of one endpoint, newest first, a page at a time. */
export async function listDeliveries(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  options: DeliveryListOptions,
): Promise<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null }> {
  const endpoint = await ownedEndpoint(ctx, workspaceId, id);
  const rows = await deliveryLog.deliveriesOf(ctx, endpoint.id, {
    status: options.status,
    limit: options.limit + 1,
    ...(options.cursor ? { after: decodeCursor(options.cursor) } : {}),
  });
  const { page, nextCursor } = keysetPage(rows, options.limit, (row) => row.delivery);
  return { deliveries: page.map(toDeliveryView), nextCursor };
}

/**
 * Queues a delivery again now, with the same `webhook-id` and body, and the retry schedule from
 * its start. One being sent at this moment, or to a turned-off endpoint, is 409 `invalid_status`.
 */
export async function redeliver(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await ownedEndpoint(ctx, workspaceId, id);
  if (!isUuid(deliveryId) || !(await deliveryLog.findDelivery(ctx, endpoint.id, deliveryId)))
    throw notFound('delivery');
  // The worker sends nothing to a turned-off endpoint: a 202 would only queue it behind the switch.
  if (endpoint.disabledAt !== null)
    throw new ProblemError(
      problem(
        'invalid_status',
        'This endpoint is turned off, so nothing would be sent: turn it on first (PATCH /api/v1/webhooks/{id} with { "enabled": true }, or the switch in Settings), then redeliver',
      ),
    );
  const now = new Date();
  const row = await deliveryLog.requeueDelivery(ctx, endpoint.id, deliveryId, now);
  if (!row)
    throw new ProblemError(
      problem('invalid_status', 'The delivery is being sent right now; try again in a moment'),
    );
  wakeWebhookWorker(now);
  return deliveryView(ctx, endpoint.id, deliveryId);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
