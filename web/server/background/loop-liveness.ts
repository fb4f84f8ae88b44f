/**
 * Whether the background loops of this process still complete passes (contract section F: `/ready`
 * names `dispatcher` and `webhooks` where they run and fails when a loop has not completed a pass
 * within twice its interval). A loop stuck in a round, however `/health` looks, makes the process
 * unready. See docs/operations.md#health-and-readiness.
 *
 * The registry lives on globalThis: Next.js loads this module once per route bundle, and the loops
 * (started by the process) and `/ready` (a route) must see the same one.
 */
export type LoopCheck = 'dispatcher' | 'webhooks';

interface LoopBeat {
  check: LoopCheck;
  intervalMs: number;
  lastPassAt: number;
}

const holder = globalThis as typeof globalThis & { __postwaveLoopBeats?: Set<LoopBeat> };
holder.__postwaveLoopBeats ??= new Set();
const beats = holder.__postwaveLoopBeats;

export interface LoopLiveness {
  /** A pass (one round and the decision what to do next) has completed. */
  passed(): void;
  /** The loop has stopped: it is no longer checked. */
  end(): void;
}

export function registerLoop(check: LoopCheck, intervalMs: number): LoopLiveness {
  const beat: LoopBeat = { check, intervalMs, lastPassAt: Date.now() };
  beats.add(beat);
  return {
    passed: () => {
      beat.lastPassAt = Date.now();
    },
    end: () => {
      beats.delete(beat);
    },
  };
}

/** The checks of the loops running here, each with the problem of its slowest loop, if any. */
export function loopProblems(now = Date.now()): Map<LoopCheck, string | undefined> {
  const problems = new Map<LoopCheck, string | undefined>();
  for (const beat of beats) {
    const silentMs = now - beat.lastPassAt;
    const problem =
      silentMs > 2 * beat.intervalMs
        ? `no pass completed for ${seconds(silentMs)} (its interval is ${seconds(beat.intervalMs)})`
        : undefined;
    if (!problems.has(beat.check) || problem) problems.set(beat.check, problem ?? problems.get(beat.check));
  }
  return problems;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
