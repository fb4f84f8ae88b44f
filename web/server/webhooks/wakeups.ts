import { EventEmitter } from 'node:events';
import type { AppContext } from '#server/context.ts';
import { webhookChannel } from './delivery-queue-repository.ts';

/**
 * How the webhook worker hears that a delivery is due: in this process an event (on globalThis,
 * since Next.js loads this module once per bundle), and from any connection a NOTIFY on
 * `postwave_webhooks`, which PostgreSQL (and PGlite) delivers when the inserting transaction
 * commits. A slow safety-net poll covers a notification lost while a listener reconnects.
 */
const holder = globalThis as typeof globalThis & { __postwaveWebhookEvents?: EventEmitter };
holder.__postwaveWebhookEvents ??= new EventEmitter().setMaxListeners(0);
const local = holder.__postwaveWebhookEvents;

export function wakeWebhookWorker(at: Date = new Date()): void {
  local.emit('due', at);
}

export function listenForDeliveries(ctx: AppContext, listener: (at: Date) => void): () => Promise<void> {
  local.on('due', listener);
  const remote = ctx.database
    .listen(webhookChannel, (payload) => {
      const at = Number(payload);
      listener(Number.isFinite(at) ? new Date(at) : new Date());
    })
    .catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'LISTEN for webhook deliveries failed; the safety-net poll covers it');
      return undefined;
    });
  return async () => {
    local.off('due', listener);
    await (await remote)?.();
  };
}
