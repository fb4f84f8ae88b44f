/**
 * A cancellation signal that fires when `parent` aborts or `ms` pass, whichever comes first,
 * and that lets go of everything once `dispose()` is called.
 *
 * Why not `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: a timeout signal keeps its timer,
 * and the composite keeps its listeners and whatever the request hung on them, until the timeout
 * fires, even when the work finished long before. Under load that is rate × timeout of dead
 * requests held in memory (measured: over 1 GiB RSS in 60 s at 2,400 posts/s with 30 s timeouts).
 * Here the timer is cleared and the parent listener removed as soon as the work ends.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the time ran out (as opposed to the parent aborting). */
  readonly timedOut: boolean;
  /** Clears the timer and detaches from the parent. Safe to call more than once. */
  dispose(): void;
}

export function withDeadline(parent: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParentAbort = () => {
    dispose();
    controller.abort(parent?.reason);
  };
  const dispose = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    parent?.removeEventListener('abort', onParentAbort);
  };
  if (parent?.aborted) {
    controller.abort(parent.reason);
  } else {
    parent?.addEventListener('abort', onParentAbort, { once: true });
    if (Number.isFinite(ms)) {
      timer = setTimeout(
        () => {
          timedOut = true;
          dispose();
          controller.abort(new DOMException(`Timed out after ${ms} ms`, 'TimeoutError'));
        },
        Math.max(0, ms),
      );
      // A pending deadline alone never keeps the process alive.
      timer.unref?.();
    }
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose,
  };
}

/** Runs `work` under a deadline and disposes of it when the work settles. */
export async function runWithDeadline<T>(
  parent: AbortSignal | undefined,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = withDeadline(parent, ms);
  try {
    return await work(deadline.signal);
  } finally {
    deadline.dispose();
  }
}
