import type { AppContext } from '#server/context.ts';
import { finalizeOptions } from '#server/posts/finalize-options.ts';
import { type FinalizedPost, finalizePosts, type PostFinalization } from '#server/posts/repository.ts';
import { type ClaimAnswer, claimTargets, type TargetClaim } from '#server/posts/targets-repository.ts';

/**
 * Collects calls and runs them as one statement. Every caller still waits for its own row to be
 * written, so durability per target is unchanged; only the number of database round trips (the
 * dispatcher's bottleneck) goes down. Group commit: the calls of one turn of the event loop go at
 * once when nothing of this batcher is in flight; while a statement is in flight, calls gather and
 * go as one when it returns (or when `maxSize` of them wait). A batch is never held back waiting
 * for more: an idle batcher sends at the next turn, so a lone post pays no delay.
 */
export class MicroBatcher<I, O> {
  readonly #flush: (items: I[]) => Promise<O[]>;
  readonly #maxSize: number;
  #queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  #scheduled = false;
  #inFlight = 0;

  constructor(flush: (items: I[]) => Promise<O[]>, maxSize = 200) {
    this.#flush = flush;
    this.#maxSize = maxSize;
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#queue.length >= this.#maxSize) this.#drain();
      else if (this.#inFlight === 0 && !this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          if (this.#inFlight === 0) this.#drain();
        });
      }
    });
  }

  #drain(): void {
    const batch = this.#queue.splice(0, this.#maxSize);
    if (batch.length === 0) return;
    this.#inFlight++;
    this.#flush(batch.map((b) => b.item))
      .then(
        (results) => {
          for (const [i, b] of batch.entries()) b.resolve(results[i]!);
        },
        (error: unknown) => {
          for (const b of batch) b.reject(error);
        },
      )
      .finally(() => {
        this.#inFlight--;
        // What gathered meanwhile goes now, as one statement.
        if (this.#inFlight === 0) this.#drain();
      });
  }
}

/** One INSERT records the publish intents of many posts; each caller learns whether its target is its to send. */
export function targetClaimBatcher(ctx: AppContext): MicroBatcher<TargetClaim, ClaimAnswer> {
  return new MicroBatcher((claims) => claimTargets(ctx, claims));
}

/**
 * One statement writes many posts' final status, their last target results, their timeline events
 * (triggers) and their analytics schedule; answers each post's status (null when the lease was
 * lost) and whether its workspace takes post events.
 */
export function finalizationBatcher(ctx: AppContext): MicroBatcher<PostFinalization, FinalizedPost | null> {
  const options = finalizeOptions(ctx);
  return new MicroBatcher((items) => finalizePosts(ctx, items, options));
}
