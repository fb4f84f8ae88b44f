/**
 * The webhook events (docs/webhooks.md), shared by both servers: post events carry the Post
 * (the Scheduler's Post resource; the self-hosted server's publish response), account events
 * the Account.
 */
export const webhookEventTypes = [
  'post.published',
  'post.partially_published',
  'post.failed',
  'post.unknown',
  'post.at_risk',
  'post.submitted',
  'post.approved',
  'post.rejected',
  'account.needs_reconnect',
  'account.disconnected',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The events an endpoint may subscribe to (`webhook.test` is always sent when asked for). */
export const subscribableWebhookEvents = webhookEventTypes.filter((t) => t !== 'webhook.test');

/** The body of every delivery: `{ type, timestamp, data }`. */
export interface WebhookPayload<T = unknown> {
  type: WebhookEventType;
  /** ISO 8601 instant the event happened. */
  timestamp: string;
  data: T;
}

export function webhookPayload<T>(type: WebhookEventType, data: T, at: Date = new Date()): WebhookPayload<T> {
  return { type, timestamp: at.toISOString(), data };
}

/**
 * The post event for a finished publish: every target posted → `post.published`; some target's
 * outcome lost → `post.unknown`; some posted and some failed → `post.partially_published`;
 * none posted → `post.failed`.
 */
export function postEventType(
  targets: readonly { status: 'posted' | 'failed' | 'unknown' | string }[],
): Extract<WebhookEventType, `post.${string}`> {
  const posted = targets.filter((t) => t.status === 'posted').length;
  if (targets.length > 0 && posted === targets.length) return 'post.published';
  if (targets.some((t) => t.status === 'unknown')) return 'post.unknown';
  return posted > 0 ? 'post.partially_published' : 'post.failed';
}
