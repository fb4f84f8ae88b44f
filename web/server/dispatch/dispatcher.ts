import type { AppContext } from '#server/context.ts';
import { isShuttingDown, trackWork } from '#server/lifecycle/shutdown.ts';
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
  readonly #options: DispatcherOptions;
  readonly #stopping = new AbortController();
  #alarm = Number.POSITIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #wakeSleeper: (() => void) | undefined;
  /** Set when an announcement arrived during a run: look again before sleeping. */
  #dirty = false;
  #loop: Promise<void> | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  /** The staging pass beside the loop (media of posts with video uploaded within the lead). */
  readonly #stager: Stager;

  constructor(ctx: AppContext, options: DispatcherOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#stager = new Stager(ctx, {
      leadMs: options.stageLeadMs ?? 0,
      concurrency: options.stageConcurrency ?? 4,
      leaseMs: options.leaseMs,
      intervalMs: options.intervalMs,
      ...(options.owner ? { owner: `${options.owner}:stage` } : {}),
    });
  }

  start(): void {
    if (this.#loop) return;
    this.#unlisten = listenForDue(this.#ctx, (at) => this.wake(at));
    this.#stager.start();
    this.#loop = this.#run();
  }

  /** A post is due at `at` (default: now). Earlier than the alarm: the alarm moves. */
  wake(at: Date = new Date()): void {
    this.#stager.wake(at);
    const when = at.getTime();
    if (!this.#wakeSleeper) {
      this.#dirty = true;
      return;
    }
    if (when < this.#alarm) this.#arm(when);
  }

  /**
   * Stops claiming, hands back claimed posts not yet started, lets the ones in flight finish,
   * and resolves when the loop has ended (the graceful-shutdown hook).
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wakeSleeper?.();
    await this.#loop;
    await this.#stager.stop();
    await this.#unlisten?.();
  }

  async #run(): Promise<void> {
    const ctx = this.#ctx;
    const signal = this.#stopping.signal;
    // A process shutting down (SIGTERM) claims nothing more; its run in flight is tracked work.
    while (!signal.aborted && !isShuttingDown()) {
      this.#dirty = false;
      try {
        await trackWork(dispatchDuePosts(ctx, { ...this.#options, signal }));
      } catch (error) {
        ctx.logger.error({ err: error }, 'dispatch run failed');
      }
      if (signal.aborted) break;
      if (this.#dirty) continue;
      let next = Date.now() + this.#options.intervalMs;
      try {
        const due = await earliestDueAt(ctx);
        if (due) next = Math.min(next, due.getTime());
      } catch (error) {
        ctx.logger.warn({ err: error }, 'could not read the next due time; polling');
      }
      if (this.#dirty || signal.aborted || isShuttingDown()) continue;
      await this.#sleepUntil(next);
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
    // +1 ms: a timer may fire within the millisecond before; claiming uses `now >= due`.
    const delay = Math.max(0, at - Date.now() + 1);
    this.#timer = setTimeout(() => this.#wakeSleeper?.(), delay);
    this.#timer.unref();
  }
}
