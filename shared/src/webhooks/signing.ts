import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), through the `standardwebhooks`
 * package so receivers can verify with the same library: `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per live secret, space-separated.
 */
export const webhookSecretPrefix = 'whsec_';

/** A new signing secret: `whsec_` + 32 random bytes in base64, the form the package reads. */
export function newWebhookSecret(): string {
  return webhookSecretPrefix + randomBytes(32).toString('base64');
}

/** True for a `whsec_…` secret the package can use (at least 16 key bytes). */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(webhookSecretPrefix)) return false;
  const key = secret.slice(webhookSecretPrefix.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(key) && Buffer.from(key, 'base64').length >= 16;
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The three headers of one delivery. With more than one secret (a rotation's overlap), each
 * signs the message and the signatures are sent space-separated: a receiver that still holds
 * the old secret, and one that already has the new, both verify.
 */
export function signWebhook(
  message: { id: string; timestamp: Date; body: string },
  secrets: readonly string[],
): WebhookHeaders {
  if (secrets.length === 0) throw new Error('signWebhook needs at least one secret');
  const signatures = secrets.map((secret) =>
    new Webhook(secret).sign(message.id, message.timestamp, message.body),
  );
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
