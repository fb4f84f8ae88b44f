/**
 * A sweep run every `intervalMs` in this process, one run at a time: a tick that finds the
 * previous run still going is skipped. The timer is unref'd, so it never keeps the process alive.
 * The work itself is leased in the database, so every instance may run the same sweep.
 */
export interface IntervalSweepOptions {
  intervalMs: number;
  /** Also run once at once, rather than first after one interval. */
  runAtStart: boolean;
  sweep(): Promise<void>;
  /** A failed run: logged here; the next tick tries again. */
  onError(error: unknown): void;
}

export function startIntervalSweep(options: IntervalSweepOptions): NodeJS.Timeout {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await options.sweep();
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  if (options.runAtStart) void tick();
  return timer;
}
