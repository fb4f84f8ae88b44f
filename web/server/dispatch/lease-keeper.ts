/**
 * Renews the leases of claims still held, every third of the lease, so a claim lives as long as
 * its holder does, however long publishing or an upload takes; a holder that dies stops renewing
 * and its claims expire within one lease. One statement per renewal for all held claims.
 */
export class LeaseKeeper {
  readonly #held = new Set<string>();
  readonly #renew: (ids: string[]) => Promise<void>;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<void> | undefined;

  constructor(leaseMs: number, renew: (ids: string[]) => Promise<void>, onError: (error: unknown) => void) {
    this.#renew = renew;
    this.#onError = onError;
    this.#timer = setInterval(() => this.#tick(), Math.max(50, Math.floor(leaseMs / 3)));
    this.#timer.unref();
  }

  hold(id: string): void {
    this.#held.add(id);
  }

  release(id: string): void {
    this.#held.delete(id);
  }

  /** Stops renewing (the claims are released or finished by then); waits for a renewal in flight. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#renewing;
  }

  #tick(): void {
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = this.#renew([...this.#held])
      .catch(this.#onError)
      .finally(() => {
        this.#renewing = undefined;
      });
  }
}
