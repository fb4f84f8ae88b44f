import { randomUUID } from 'node:crypto';
import { type WebhookEventType, webhookEventTypes, webhookPayload } from '@postwave/shared';
import type { Database } from '../db/client.ts';
import { enqueueEvent } from './delivery-queue-repository.ts';
import { wakeWebhookWorker } from './wakeups.ts';

export { type WebhookEventType, webhookEventTypes };

export interface WebhookEvent {
  /** The owner: only this user's endpoints subscribed to `type` receive it. */
  workspaceId: string;
  type: WebhookEventType;
  data: unknown;
}

/**
 * Records one event for delivery to the user's subscribed endpoints: one durable delivery row
 * per endpoint, sent by the webhook worker (retries, log, disable) on this or any instance.
 * Callers pass the database, or the transaction that made the change: then the event is
 * recorded only when the change is, and workers are notified when it commits.
 */
export async function emitWebhookEvent(db: Database, event: WebhookEvent): Promise<void> {
  const at = new Date();
  const count = await enqueueEvent(
    { db },
    {
      workspaceId: event.workspaceId,
      type: event.type,
      messageId: `msg_${randomUUID()}`,
      body: JSON.stringify(webhookPayload(event.type, event.data, at)),
      at,
    },
  );
  if (count > 0) wakeWebhookWorker(at);
}
