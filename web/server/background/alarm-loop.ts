import { existsSync } from 'node:fs';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { type LoopCheck, type LoopLiveness, registerLoop } from './loop-liveness.ts';

/** What a round found: `more` when it filled its batch (look again at once, no sleep). */
export type RoundOutcome = 'more' | 'done' | 'nothing-claimed';

export interface AlarmLoopOptions {
  /** One round of work (claim, run). Errors are logged with `roundFailed` and count as `nothing-claimed`. */
  round(signal: AbortSignal): Promise<RoundOutcome>;
  /** When the next item is due (ms since epoch), or undefined for none known; errors fall back to the safety interval. */
  nextDueAt(): Promise<number | undefined>;
  /** The safety net: the longest the loop sleeps without looking (a wake-up lost, a NOTIFY missed). */
  safetyIntervalMs: number;
  /**
   * After a round that claimed nothing (or failed), sleep at least this long even if something
   * looks due: a row locked by an edit, or a failing database, never makes the loop spin.
   */
  nothingClaimedBackoffMs?: number;
  /** Housekeeping before the loop decides how long to sleep (runs only when it is about to sleep). */
  beforeSleep?: () => Promise<void>;
  logger: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  messages: { roundFailed: string; nextDueFailed: string };
  /** The `/ready` check this loop reports to (a loop silent for twice its safety interval fails it). */
  liveness?: LoopCheck;
  /**
   * Testing hook (LOOP_HOLD_FILE): while this file exists the loop holds before its next round,
   * as a stuck worker would, so a test can watch `/ready` fail and recover without a mock.
   */
  holdFile?: string | undefined;
}

const holdPollMs = 100;

/**
 * The loop behind the dispatcher, the stager and the webhook worker: run a round, then sleep until
 * the next due item (or the safety interval, whichever comes first), and look again. A wake-up for
 * an item due before the alarm moves the alarm earlier; one arriving during a round makes the loop
 * look again before sleeping. Rounds never overlap; across processes, the database leases keep
 * instances apart. The loop ends on `stop()` or when the process shuts down (SIGTERM).
 */
export class AlarmLoop {
  readonly #options: AlarmLoopOptions;
  readonly #stopping = new AbortController();
  #alarm = Number.POSITIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #wakeSleeper: (() => void) | undefined;
  /** Set when a wake-up arrived while awake: look again before sleeping. */
  #dirty = false;
  #loop: Promise<void> | undefined;

  constructor(options: AlarmLoopOptions) {
    this.#options = options;
  }

  /** Aborted by `stop()`: rounds pass it to the work they start. */
  get signal(): AbortSignal {
    return this.#stopping.signal;
  }

  get started(): boolean {
    return this.#loop !== undefined;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Something is due at `at` (ms since epoch). Earlier than the alarm: the alarm moves. */
  wake(at: number = Date.now()): void {
    if (!this.#wakeSleeper) {
      this.#dirty = true;
      return;
    }
    if (at < this.#alarm) this.#arm(at);
  }

  /** Aborts the signal, ends a sleep, and resolves when the round in flight has ended. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wakeSleeper?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const options = this.#options;
    const liveness = options.liveness ? registerLoop(options.liveness, options.safetyIntervalMs) : undefined;
    try {
      await this.#passes(liveness);
    } finally {
      liveness?.end();
    }
  }

  async #passes(liveness: LoopLiveness | undefined): Promise<void> {
    const options = this.#options;
    const signal = this.#stopping.signal;
    // A process shutting down (SIGTERM) claims nothing more.
    while (!signal.aborted && !isShuttingDown()) {
      await this.#hold(signal);
      // Awake and about to work: silence is measured from here, so only a stuck round counts.
      liveness?.passed();
      this.#dirty = false;
      let outcome: RoundOutcome;
      try {
        outcome = await options.round(signal);
      } catch (error) {
        options.logger.error({ err: error }, options.messages.roundFailed);
        outcome = 'nothing-claimed';
      }
      if (signal.aborted) break;
      liveness?.passed();
      if (this.#dirty || outcome === 'more') continue;
      await options.beforeSleep?.();
      let next = Date.now() + options.safetyIntervalMs;
      try {
        const due = await options.nextDueAt();
        if (due !== undefined) next = Math.min(next, due);
      } catch (error) {
        options.logger.warn({ err: error }, options.messages.nextDueFailed);
      }
      if (outcome === 'nothing-claimed' && options.nothingClaimedBackoffMs) {
        next = Math.max(next, Date.now() + options.nothingClaimedBackoffMs);
      }
      if (this.#dirty || signal.aborted || isShuttingDown()) continue;
      await this.#sleepUntil(next);
    }
  }

  async #hold(signal: AbortSignal): Promise<void> {
    const file = this.#options.holdFile;
    while (file && existsSync(file) && !signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, holdPollMs));
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
