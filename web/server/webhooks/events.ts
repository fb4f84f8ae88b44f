import type { Database } from '../db/client.ts';

/** The events of contract section E; post events carry the Post, account events the Account. */
export const webhookEventTypes = [
  'post.published',
  'post.partially_published',
  'post.failed',
  'post.unknown',
  'account.needs_reconnect',
  'account.disconnected',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export interface WebhookEvent {
  /** The owner: only this user's endpoints subscribed to `type` receive it. */
  userId: string;
  type: WebhookEventType;
  data: unknown;
}

/**
 * Records one event for delivery to the user's subscribed endpoints. Callers pass the database
 * (or the transaction that made the change, so the event is recorded only when the change is).
 * Placeholder until the webhooks module lands: it records nothing yet.
 */
export async function emitWebhookEvent(_db: Database, _event: WebhookEvent): Promise<void> {}
