import { randomUUID } from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import { isShuttingDown, trackWork } from '#server/lifecycle/shutdown.ts';
import { deliverDue } from './delivery.ts';
import { earliestDueDelivery, pruneDeliveries } from './repository.ts';
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
  readonly #stopping = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #wakeSleeper: (() => void) | undefined;
  #alarm = Number.POSITIVE_INFINITY;
  #dirty = false;
  #loop: Promise<void> | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #prunedAt = 0;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
  }

  start(): void {
    if (this.#loop) return;
    this.#unlisten = listenForDeliveries(this.#ctx, (at) => this.wake(at));
    this.#loop = this.#run();
  }

  wake(at: Date = new Date()): void {
    if (!this.#wakeSleeper) {
      this.#dirty = true;
      return;
    }
    if (at.getTime() < this.#alarm) this.#arm(at.getTime());
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wakeSleeper?.();
    await this.#loop;
    await this.#unlisten?.();
  }

  async #run(): Promise<void> {
    const ctx = this.#ctx;
    const signal = this.#stopping.signal;
    const { concurrency, retrySchedule } = ctx.config.webhooks;
    while (!signal.aborted && !isShuttingDown()) {
      this.#dirty = false;
      let claimed = 0;
      try {
        claimed = await trackWork(
          deliverDue(ctx, { owner: this.#owner, schedule: retrySchedule, limit: concurrency, signal }),
        );
      } catch (error) {
        ctx.logger.error({ err: error }, 'webhook delivery round failed');
      }
      if (signal.aborted) break;
      if (this.#dirty || claimed === concurrency) continue;
      await this.#prune();
      let next = Date.now() + safetyPollMs;
      try {
        const due = await earliestDueDelivery(ctx);
        if (due) next = Math.min(next, due.getTime());
      } catch (error) {
        ctx.logger.warn({ err: error }, 'could not read the next webhook delivery time; polling');
      }
      if (this.#dirty || signal.aborted || isShuttingDown()) continue;
      await this.#sleepUntil(next);
    }
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

  #sleepUntil(at: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wakeSleeper = () => {
        clearTimeout(this.#timer);
        this.#wakeSleeper = undefined;
        this.#alarm = Number.POSITIVE_INFINITY;
        resolve();
      };
      this.#arm(at);
    });
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#alarm = at;
    this.#timer = setTimeout(() => this.#wakeSleeper?.(), Math.max(0, at - Date.now() + 1));
    this.#timer.unref();
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
