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

/**
 * Consecutive failures per key with exponential backoff: the first `freeFailures` cost nothing,
 * then each failure blocks the key for `baseDelayMs`, doubled per further failure, at most
 * `maxDelayMs`. A success clears the key; a key idle for `maxDelayMs` after its block is forgotten.
 * Attempts refused while blocked are not counted, so they cannot extend the block.
 */
export class BackoffThrottle {
  readonly #state = new Map<string, { failures: number; blockedUntil: number; last: number }>();
  readonly #freeFailures: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;

  constructor(options: { freeFailures: number; baseDelayMs: number; maxDelayMs: number }) {
    this.#freeFailures = options.freeFailures;
    this.#baseDelayMs = options.baseDelayMs;
    this.#maxDelayMs = options.maxDelayMs;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfterMs(key: string, now = Date.now()): number {
    const entry = this.#state.get(key);
    return entry ? Math.max(0, entry.blockedUntil - now) : 0;
  }

  fail(key: string, now = Date.now()): void {
    const entry = this.#state.get(key) ?? { failures: 0, blockedUntil: 0, last: now };
    entry.failures++;
    entry.last = now;
    const over = entry.failures - this.#freeFailures;
    if (over >= 0) {
      entry.blockedUntil = now + Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** Math.min(over, 30));
    }
    this.#state.set(key, entry);
    if (this.#state.size > 10_000) this.#forgetIdle(now);
  }

  succeed(key: string): void {
    this.#state.delete(key);
  }

  #forgetIdle(now: number): void {
    for (const [key, entry] of this.#state) {
      if (now - Math.max(entry.last, entry.blockedUntil) > this.#maxDelayMs) this.#state.delete(key);
    }
  }
}

/**
 * One instance per process and name. Next.js gives each route bundle its own copy of our modules,
 * so module-level limiters would count sign-ins through the API and through the sign-in page
 * separately; this keeps one count.
 */
export function processWide<T>(name: string, create: () => T): T {
  const holder = globalThis as typeof globalThis & { __postwaveLimiters?: Map<string, unknown> };
  holder.__postwaveLimiters ??= new Map();
  if (!holder.__postwaveLimiters.has(name)) holder.__postwaveLimiters.set(name, create());
  return holder.__postwaveLimiters.get(name) as T;
}
