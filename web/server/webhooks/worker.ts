import { randomUUID } from 'node:crypto';
import { AlarmLoop } from '#server/background/alarm-loop.ts';
import type { AppContext } from '#server/context.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import { deliverDue } from './delivery.ts';
import { earliestDueDelivery, pruneDeliveries } from './delivery-queue-repository.ts';
import { listenForDeliveries } from './wakeups.ts';

/** The longest the worker sleeps without looking (a NOTIFY lost while reconnecting). */
const safetyPollMs = 60_000;
/** Delivered and failed deliveries (and their attempts) are kept in the log this long. */
export const deliveryLogRetentionMs = 30 * 24 * 3_600_000;
const pruneEveryMs = 3_600_000;

/**
 * The in-process webhook worker: sleeps until the earliest pending delivery is due (or a new one
 * is announced), sends what is due, and looks again. Every instance may run one: the claims'
 * leases (`FOR UPDATE SKIP LOCKED`) keep them apart, and deliveries survive restarts because
 * they live in the database.
 */
export class WebhookWorker {
  readonly #ctx: AppContext;
  readonly #owner = `webhooks:${randomUUID()}`;
  readonly #loop: AlarmLoop;
  #unlisten: (() => Promise<void>) | undefined;
  #prunedAt = 0;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.#loop = new AlarmLoop({
      // A round in flight is tracked work: a graceful shutdown waits for it.
      round: async (signal) => {
        const { concurrency, retrySchedule } = ctx.config.webhooks;
        const claimed = await trackWork(
          deliverDue(ctx, { owner: this.#owner, schedule: retrySchedule, limit: concurrency, signal }),
        );
        return claimed === concurrency ? 'more' : 'done';
      },
      nextDueAt: async () => (await earliestDueDelivery(ctx))?.getTime(),
      beforeSleep: () => this.#prune(),
      safetyIntervalMs: safetyPollMs,
      liveness: 'webhooks',
      holdFile: ctx.config.loopHoldFile,
      logger: ctx.logger,
      messages: {
        roundFailed: 'webhook delivery round failed',
        nextDueFailed: 'could not read the next webhook delivery time; polling',
      },
    });
  }

  start(): void {
    if (this.#loop.started) return;
    this.#unlisten = listenForDeliveries(this.#ctx, (at) => this.wake(at));
    this.#loop.start();
  }

  wake(at: Date = new Date()): void {
    this.#loop.wake(at.getTime());
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
    await this.#unlisten?.();
  }

  /** At most hourly: the log keeps 30 days of finished deliveries (every instance may do it; it is idempotent). */
  async #prune(): Promise<void> {
    if (Date.now() - this.#prunedAt < pruneEveryMs) return;
    this.#prunedAt = Date.now();
    try {
      await pruneDeliveries(this.#ctx, new Date(Date.now() - deliveryLogRetentionMs));
    } catch (error) {
      this.#ctx.logger.warn({ err: error }, 'could not prune the webhook delivery log');
    }
  }
}

const holder = globalThis as typeof globalThis & { __postwaveWebhookWorker?: WebhookWorker };

/** Starts this process's worker (WEBHOOK_WORKER_ENABLED, the default). */
export function startWebhookWorker(ctx: AppContext): WebhookWorker | undefined {
  if (holder.__postwaveWebhookWorker) return holder.__postwaveWebhookWorker;
  if (!ctx.config.webhooks.workerEnabled) {
    ctx.logger.info('webhook worker is off (WEBHOOK_WORKER_ENABLED=false)');
    return undefined;
  }
  const worker = new WebhookWorker(ctx);
  holder.__postwaveWebhookWorker = worker;
  worker.start();
  return worker;
}
