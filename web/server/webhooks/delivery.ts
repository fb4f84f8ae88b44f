import { type FetchLike, sendWebhook } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  recordAttempt,
  releaseDelivery,
} from './delivery-queue-repository.ts';
import { disableFailingEndpoint, type EndpointRow } from './repository.ts';

/** An endpoint that fails every attempt for this long is turned off, with a notice. */
export const disableAfterMs = 24 * 60 * 60 * 1000;
/** A claim outlives one attempt (15 s) with room to record it; after it, another worker may retry. */
export const deliveryLeaseMs = 60_000;

export interface DeliveryOptions {
  /** Who holds the claims (a worker instance, or one request sending a test). */
  owner: string;
  /** The delays between attempts (WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[];
  /** Decides due times, retries and the day of failures; tests pass a clock they control. */
  now?: () => Date;
  /** The SSRF-safe fetch by default (endpoints are user-chosen URLs). */
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Shutdown: nothing more is sent; claims not yet started are handed back. */
  signal?: AbortSignal;
}

const aad = (id: string) => `webhook-secret:${id}`;
const previousAad = (id: string) => `webhook-previous-secret:${id}`;

export function encryptSecret(ctx: AppContext, endpointId: string, secret: string): string {
  return ctx.cipher.encrypt(secret, aad(endpointId));
}
export function encryptPreviousSecret(ctx: AppContext, endpointId: string, secret: string): string {
  return ctx.cipher.encrypt(secret, previousAad(endpointId));
}
export function decryptSecret(ctx: AppContext, endpoint: EndpointRow): string {
  return ctx.cipher.decrypt(endpoint.secret, aad(endpoint.id));
}

/** The current secret, and during a rotation's overlap the previous one too. */
function signingSecrets(ctx: AppContext, endpoint: EndpointRow, at: Date): string[] {
  const secrets = [decryptSecret(ctx, endpoint)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at)
    secrets.push(ctx.cipher.decrypt(endpoint.previousSecret, previousAad(endpoint.id)));
  return secrets;
}

/**
 * Sends one claimed delivery and records the attempt: delivered on a 2xx within 15 s; otherwise
 * pending again after the schedule's next delay, or failed once the schedule is used up. An
 * endpoint failing for a day is disabled here, and its owner told.
 */
export async function attemptDelivery(
  ctx: AppContext,
  claimed: ClaimedDelivery,
  options: DeliveryOptions,
): Promise<'delivered' | 'pending' | 'failed'> {
  const { delivery, endpoint } = claimed;
  const now = options.now ?? (() => new Date());
  const result = await sendWebhook(
    options.fetch ?? ctx.userUrlFetch,
    endpoint.url,
    // `webhook-timestamp` is the wall clock at sending, whatever clock decides the schedule.
    { id: delivery.messageId, timestamp: new Date(), body: delivery.body },
    signingSecrets(ctx, endpoint, now()),
    { ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
  );
  const at = now();
  const delay = result.ok ? undefined : options.schedule[delivery.retries];
  const outcome = result.ok
    ? ({ status: 'delivered' } as const)
    : delay === undefined
      ? ({ status: 'failed' } as const)
      : ({ status: 'pending', nextAttemptAt: new Date(at.getTime() + delay) } as const);
  const { failingSince } = await recordAttempt(ctx, {
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    owner: options.owner,
    at,
    statusCode: result.status,
    durationMs: result.durationMs,
    error: result.error,
    responseBody: result.responseBody,
    outcome,
  });
  if (!result.ok) {
    ctx.logger.info(
      {
        webhookId: endpoint.id,
        deliveryId: delivery.id,
        status: result.status,
        error: result.error,
        next: outcome.status,
      },
      'webhook delivery attempt failed',
    );
  }
  if (failingSince && at.getTime() - failingSince.getTime() >= disableAfterMs) {
    await disableEndpoint(ctx, endpoint.id, at);
  }
  return outcome.status;
}

async function disableEndpoint(ctx: AppContext, endpointId: string, at: Date): Promise<void> {
  const reason = 'Every delivery attempt failed for 24 hours; turn the endpoint on again once it answers.';
  const disabled = await disableFailingEndpoint(
    ctx,
    endpointId,
    new Date(at.getTime() - disableAfterMs + 1),
    at,
    reason,
  );
  if (!disabled) return;
  const { endpoint, emails } = disabled;
  ctx.logger.warn({ webhookId: endpoint.id }, 'webhook endpoint disabled after a day of failed deliveries');
  if (!ctx.config.mail) return;
  const settings = `${ctx.config.appUrl}/settings#webhooks`;
  try {
    for (const email of emails)
      await sendMail(ctx.config.mail, {
        to: email,
        subject: 'Postwave: a webhook endpoint was turned off',
        text: `Every delivery to your webhook endpoint ${endpoint.url} failed for 24 hours, so Postwave turned it off. Deliveries wait until you turn it on again: ${settings}`,
        html: `<p>Every delivery to your webhook endpoint <code>${escapeHtml(endpoint.url)}</code> failed for 24 hours, so Postwave turned it off.</p><p>Deliveries wait until you <a href="${escapeHtml(settings)}">turn it on again</a>.</p>`,
      });
  } catch (error) {
    ctx.logger.warn({ err: error, webhookId: endpoint.id }, 'could not send the webhook-disabled notice');
  }
}

/**
 * One round of the worker: claims up to `limit` due deliveries and sends them concurrently.
 * Returns how many it claimed (a full batch means more may be waiting).
 */
export async function deliverDue(
  ctx: AppContext,
  options: DeliveryOptions & { limit: number },
): Promise<number> {
  if (options.signal?.aborted) return 0;
  const now = options.now ?? (() => new Date());
  const claimed = await claimDueDeliveries(ctx, options.owner, now(), deliveryLeaseMs, options.limit);
  await Promise.all(
    claimed.map(async (c) => {
      if (options.signal?.aborted) {
        await releaseDelivery(ctx, c.delivery.id, options.owner);
        return;
      }
      try {
        await attemptDelivery(ctx, c, options);
      } catch (error) {
        // Recording failed (database away): the lease runs out and the delivery is tried again.
        ctx.logger.error({ err: error, deliveryId: c.delivery.id }, 'webhook delivery could not be recorded');
      }
    }),
  );
  return claimed.length;
}
