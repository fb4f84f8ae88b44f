import { AlarmLoop } from '#server/background/alarm-loop.ts';
import type { AppContext } from '#server/context.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import { Preflighter } from '#server/preflight/preflighter.ts';
import { earliestDueAt } from './repository.ts';
import { type DispatchOptions, dispatchDuePosts } from './service.ts';
import { Stager } from './stager.ts';
import { listenForDue } from './wakeups.ts';

export interface DispatcherOptions extends DispatchOptions {
  /** The safety-net poll: the longest the dispatcher sleeps without looking at the database. */
  intervalMs: number;
}

/**
 * The embedded scheduler. It sleeps until the earliest due post (or the safety-net interval,
 * whichever comes first), dispatches everything due, and looks again. An announcement of a post
 * due before the alarm (in process, or NOTIFY from another instance) moves the alarm earlier.
 * Runs never overlap within a dispatcher; across processes the database leases keep them apart.
 * Posts are claimed only once `next_attempt_at <= now`, so nothing goes out before its time.
 */
export class Dispatcher {
  readonly #ctx: AppContext;
  readonly #loop: AlarmLoop;
  #unlisten: (() => Promise<void>) | undefined;
  /** The staging pass beside the loop (media of posts with video uploaded within the lead). */
  readonly #stager: Stager;
  /** The pre-flight pass (accounts and media checked `preflightLeadMs` before the due time). */
  readonly #preflighter: Preflighter;

  constructor(ctx: AppContext, options: DispatcherOptions) {
    this.#ctx = ctx;
    this.#preflighter = new Preflighter(ctx, {
      leadMs: options.preflightLeadMs ?? 0,
      intervalMs: options.intervalMs,
    });
    this.#stager = new Stager(ctx, {
      leadMs: options.stageLeadMs ?? 0,
      concurrency: options.stageConcurrency ?? 4,
      leaseMs: options.leaseMs,
      intervalMs: options.intervalMs,
      ...(options.owner ? { owner: `${options.owner}:stage` } : {}),
    });
    this.#loop = new AlarmLoop({
      // A run in flight is tracked work: a graceful shutdown waits for it.
      round: async (signal) => {
        await trackWork(dispatchDuePosts(ctx, { ...options, signal }));
        return 'done';
      },
      nextDueAt: async () => (await earliestDueAt(ctx))?.getTime(),
      safetyIntervalMs: options.intervalMs,
      liveness: 'dispatcher',
      holdFile: ctx.config.loopHoldFile,
      logger: ctx.logger,
      messages: {
        roundFailed: 'dispatch run failed',
        nextDueFailed: 'could not read the next due time; polling',
      },
    });
  }

  start(): void {
    if (this.#loop.started) return;
    this.#unlisten = listenForDue(this.#ctx, (at) => this.wake(at));
    this.#stager.start();
    this.#preflighter.start();
    this.#loop.start();
  }

  /** A post is due at `at` (default: now). Earlier than the alarm: the alarm moves. */
  wake(at: Date = new Date()): void {
    this.#stager.wake(at);
    this.#preflighter.wake(at);
    this.#loop.wake(at.getTime());
  }

  /**
   * Stops claiming, hands back claimed posts not yet started, lets the ones in flight finish,
   * and resolves when the loop has ended (the graceful-shutdown hook).
   */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await this.#stager.stop();
    await this.#preflighter.stop();
    await this.#unlisten?.();
  }
}
