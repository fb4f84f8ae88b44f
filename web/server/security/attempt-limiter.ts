/**
 * Counts attempts per key in a sliding window, in this process. A modest brake on scripted
 * guessing (sign-in, password reset requests); a fleet behind a load balancer multiplies it.
 */
export class AttemptLimiter {
  readonly #attempts = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  get windowMs(): number {
    return this.#windowMs;
  }

  /** True while the key has used up its attempts in the current window. */
  isBlocked(key: string, now = Date.now()): boolean {
    return this.#recent(key, now).length >= this.#limit;
  }

  record(key: string, now = Date.now()): void {
    const recent = this.#recent(key, now);
    recent.push(now);
    this.#attempts.set(key, recent);
    if (this.#attempts.size > 10_000) this.#forgetIdle(now);
  }

  /** Records an attempt unless the key is blocked; false when blocked. */
  tryAttempt(key: string, now = Date.now()): boolean {
    if (this.isBlocked(key, now)) return false;
    this.record(key, now);
    return true;
  }

  reset(key: string): void {
    this.#attempts.delete(key);
  }

  #recent(key: string, now: number): number[] {
    return (this.#attempts.get(key) ?? []).filter((t) => now - t < this.#windowMs);
  }

  #forgetIdle(now: number): void {
    for (const [key, times] of this.#attempts) {
      if (times.every((t) => now - t >= this.#windowMs)) this.#attempts.delete(key);
    }
  }
}

/** The client address as the nearest proxy reports it; only a brake on request rates, never trusted for more. */
export function clientAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}
