import { randomUUID } from 'node:crypto';
import {
  type FetchLike,
  plainFetch,
  postEventType,
  sendWebhook,
  type TargetResult,
  webhookPayload,
} from '@postwave/shared';
import type { Logger } from 'pino';

export interface ServiceWebhookConfig {
  url: string;
  secret: string;
  /** Delays between attempts; after the last one the event is dropped. */
  retrySchedule: readonly number[];
  /** Events waiting for a retry, at most; past it the oldest is dropped. */
  maxQueued: number;
}

/** What a self-hosted post event carries: the publish's outcome, as the response said it. */
export interface PublishOutcome {
  message: string;
  accountIds: readonly string[];
  results: readonly TargetResult[];
}

/**
 * SERVICE_WEBHOOK_URL: each publish's outcome (`post.published`, `post.partially_published`,
 * `post.failed`) POSTed and signed like the Scheduler's webhooks (the SDK's Standard Webhooks
 * code). Best effort by design, as the server is stateless: retries live in memory, bounded in
 * number and count, and a restart forgets them. The URL is the operator's, so it is trusted
 * (plain fetch, like the accounts file's hosts).
 */
export class ServiceWebhook {
  readonly #config: ServiceWebhookConfig;
  readonly #logger: Logger;
  readonly #fetch: FetchLike;
  readonly #waiting = new Map<string, NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  #stopped = false;

  constructor(config: ServiceWebhookConfig, logger: Logger, fetch: FetchLike = plainFetch) {
    this.#config = config;
    this.#logger = logger;
    this.#fetch = fetch;
  }

  /** Queues the event for a publish; never throws and never delays the publish's response. */
  publishFinished(outcome: PublishOutcome): void {
    if (this.#stopped) return;
    const posted = outcome.results.filter((r) => r.status === 'posted').length;
    const type = postEventType(outcome.results);
    const status = posted === outcome.results.length ? 'posted' : posted > 0 ? 'partial' : 'failed';
    const body = JSON.stringify(
      webhookPayload(type, {
        status,
        message: outcome.message,
        accountIds: outcome.accountIds,
        results: outcome.results,
      }),
    );
    this.#attempt({ id: `msg_${randomUUID()}`, body, retry: 0 });
  }

  #attempt(message: { id: string; body: string; retry: number }): void {
    const run = (async () => {
      const result = await sendWebhook(
        this.#fetch,
        this.#config.url,
        { id: message.id, timestamp: new Date(), body: message.body },
        [this.#config.secret],
      );
      if (result.ok) return;
      const delay = this.#config.retrySchedule[message.retry];
      const log = {
        webhookId: message.id,
        status: result.status,
        error: result.error,
        attempt: message.retry + 1,
      };
      if (delay === undefined || this.#stopped) {
        this.#logger.warn(log, 'service webhook not delivered; giving up (best effort)');
        return;
      }
      this.#logger.info({ ...log, retryInMs: delay }, 'service webhook attempt failed; retrying');
      if (this.#waiting.size >= this.#config.maxQueued) {
        const [oldest, timer] = this.#waiting.entries().next().value!;
        clearTimeout(timer);
        this.#waiting.delete(oldest);
        this.#logger.warn(
          { webhookId: oldest },
          'service webhook retry queue full; dropped the oldest event',
        );
      }
      const timer = setTimeout(() => {
        this.#waiting.delete(message.id);
        this.#attempt({ ...message, retry: message.retry + 1 });
      }, delay);
      timer.unref();
      this.#waiting.set(message.id, timer);
    })();
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }

  /** Events waiting for a retry (for tests and shutdown logs). */
  get queued(): number {
    return this.#waiting.size;
  }

  /** Shutdown: attempts in flight finish; events waiting for a retry are dropped (and counted in the log). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.allSettled([...this.#inFlight]);
    if (this.#waiting.size > 0)
      this.#logger.warn(
        { dropped: this.#waiting.size },
        'service webhook events waiting for a retry were dropped at shutdown',
      );
    for (const timer of this.#waiting.values()) clearTimeout(timer);
    this.#waiting.clear();
  }
}
