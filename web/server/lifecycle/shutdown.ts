import { ProblemError, problem } from '@postwave/shared';

/**
 * Graceful shutdown of one Scheduler process. On SIGTERM: stop accepting publishes and stop
 * claiming scheduled posts (the dispatcher hands back claims it has not started), let publishes in
 * flight finish within SHUTDOWN_GRACE_MS, then exit 0. A second SIGTERM (a second or more after
 * the first) exits at once.
 *
 * The state lives on globalThis: Next.js loads this module once per route bundle, and every copy
 * must see the one process's state.
 */
interface ShutdownState {
  draining: boolean;
  work: Set<Promise<unknown>>;
  installed: boolean;
}

const holder = globalThis as typeof globalThis & { __postwaveShutdown?: ShutdownState };

function state(): ShutdownState {
  holder.__postwaveShutdown ??= { draining: false, work: new Set(), installed: false };
  return holder.__postwaveShutdown;
}

export function isShuttingDown(): boolean {
  return state().draining;
}

/** Throws 503 once shutdown has begun; call before anything a publish stores. */
export function assertAcceptingWork(): void {
  if (state().draining) {
    throw new ProblemError(
      problem('unavailable', 'The server is shutting down; send the request again in a moment'),
      { 'Retry-After': '5' },
    );
  }
}

/** Runs `work` as in-flight: shutdown waits for it (up to the grace period). */
export function trackWork<T>(work: Promise<T>): Promise<T> {
  const { work: set } = state();
  set.add(work);
  const done = () => set.delete(work);
  work.then(done, done);
  return work;
}

export function inFlightWork(): number {
  return state().work.size;
}

export interface ShutdownOptions {
  graceMs: number;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Lets a response written after its publish finished reach the client. */
  settleMs?: number;
  exit?: (code: number) => void;
}

/** Waits until no work is in flight (a quiet moment after the last one) or the grace runs out. */
export async function drain(graceMs: number, settleMs = 300): Promise<'drained' | 'timeout'> {
  const { work } = state();
  const deadline = Date.now() + graceMs;
  for (;;) {
    while (work.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...work]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
    }
    if (work.size > 0) return 'timeout';
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(settleMs, Math.max(0, deadline - Date.now()))),
    );
    if (work.size === 0 || Date.now() >= deadline) return work.size === 0 ? 'drained' : 'timeout';
  }
}

/**
 * How close together two signals must be to count as one stop delivered twice. Ctrl-C in a
 * terminal signals the whole process group, and `npm start` and web/scripts/start.ts forward the
 * signal too, so the server gets the same stop two or three times within milliseconds; systemd's
 * default stop signals every process of the unit as well. A second signal after this long is the
 * operator asking again: exit at once.
 */
export const duplicateSignalWindowMs = 1000;

/**
 * Takes SIGTERM and SIGINT over from Next.js. Next's own handler closes the HTTP server and exits
 * with 143 as soon as open requests end, which would cut off the in-process dispatcher's
 * publishes (they are not requests): ours lets the server keep answering (health, a publish-now
 * response) while the work drains, then exits 0. Started by web/scripts/start.ts (an IPC channel
 * to it), the server also stops this way when that parent goes away, even by SIGKILL: no orphan.
 */
export function installShutdownHandler(options: ShutdownOptions): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let firstStopAt = 0;
  const stop = (reason: string) => {
    if (s.draining) {
      if (Date.now() - firstStopAt < duplicateSignalWindowMs) return;
      options.logger.warn({ reason, inFlight: s.work.size }, 'second stop: exiting now');
      exit(1);
      return;
    }
    s.draining = true;
    firstStopAt = Date.now();
    options.logger.info(
      { reason, inFlight: s.work.size, graceMs: options.graceMs },
      'shutting down: finishing in-flight publishes',
    );
    void drain(options.graceMs, options.settleMs).then((outcome) => {
      if (outcome === 'timeout') {
        options.logger.warn(
          { inFlight: s.work.size },
          'shutdown grace period over; publishes still running are left to their lease',
        );
      } else {
        options.logger.info({}, 'stopped');
      }
      exit(0);
    });
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    process.on(signal, () => stop(signal));
  }
  // The channel web/scripts/start.ts opens; it closes when that process ends, however it ends.
  if (process.channel) process.once('disconnect', () => stop('parent process exited'));
}
