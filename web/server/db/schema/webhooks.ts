import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { ownedRow, workspaceRef } from './users.ts';

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;

export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * A user's webhook endpoint. `secret` (and during a rotation's 24-hour overlap
 * `previousSecret`) are encrypted like account credentials. `failingSince` is the first failed
 * attempt of the current run of failures (any success clears it); a day of it disables the
 * endpoint (`disabledAt`, `disabledReason`) until the user turns it on again.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    ...ownedRow(),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    failingSince: ts('failing_since'),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_workspace').on(t.workspaceId, t.createdAt)],
);

/**
 * One event for one endpoint: the durable outbox. A row is written in the same transaction as
 * the change it reports where the caller has one; the worker claims due rows with a lease
 * (`FOR UPDATE SKIP LOCKED`), so instances never send one twice at once and a dead worker's
 * claims are taken over when the lease runs out. `retries` counts the schedule steps used.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    /** `webhook-id`: the same for every attempt and redelivery of this message. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact JSON body that is signed and sent. */
    body: text('body').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    retries: integer('retries').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** Every attempt of a delivery: when, the receiver's status, how long it took, and why it failed. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: ts('attempted_at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /** The start of the reply (2 KiB at most). */
    responseBody: text('response_body'),
  },
  (t) => [index('webhook_delivery_attempts_delivery').on(t.deliveryId, t.attemptedAt)],
);
