import type { AppContext } from '#server/context.ts';
import type { PostStatus } from '#server/db/schema.ts';
import { finalizePosts, type PostFinalization } from '#server/posts/repository.ts';
import { type ClaimAnswer, claimTargets, type TargetClaim } from '#server/posts/targets-repository.ts';

/**
 * Collects calls made in the same turn of the event loop and runs them as one statement. Every
 * caller still waits for its own row to be written, so durability per target is unchanged; only
 * the number of database round trips (the dispatcher's bottleneck) goes down.
 */
export class MicroBatcher<I, O> {
  readonly #flush: (items: I[]) => Promise<O[]>;
  readonly #maxSize: number;
  #queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  #scheduled = false;

  constructor(flush: (items: I[]) => Promise<O[]>, maxSize = 200) {
    this.#flush = flush;
    this.#maxSize = maxSize;
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#queue.length >= this.#maxSize) this.#drain();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#drain());
      }
    });
  }

  #drain(): void {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, this.#maxSize);
    if (batch.length === 0) return;
    if (this.#queue.length > 0 && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#drain());
    }
    this.#flush(batch.map((b) => b.item)).then(
      (results) => {
        for (const [i, b] of batch.entries()) b.resolve(results[i]!);
      },
      (error: unknown) => {
        for (const b of batch) b.reject(error);
      },
    );
  }
}

/** One INSERT records the publish intents of many posts; each caller learns whether its target is its to send. */
export function targetClaimBatcher(ctx: AppContext): MicroBatcher<TargetClaim, ClaimAnswer> {
  return new MicroBatcher((claims) => claimTargets(ctx, claims));
}

/** One statement writes many posts' final status (and their last target results); answers the status or null when the lease was lost. */
export function finalizationBatcher(ctx: AppContext): MicroBatcher<PostFinalization, PostStatus | null> {
  return new MicroBatcher((items) => finalizePosts(ctx, items));
}
