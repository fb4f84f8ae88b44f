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
