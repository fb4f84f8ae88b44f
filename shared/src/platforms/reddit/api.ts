import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { RedditConfig } from './config.ts';
import { redditHttpError } from './errors.ts';
import type { RedditToken } from './token.ts';

/** Where one login stands in Reddit's rate-limit window (`X-Ratelimit-Remaining` / `-Reset`). */
interface Window {
  remaining: number;
  resetAt: number;
}

/**
 * Reddit's windows per login, shared by every call a publisher makes: when a window is spent the
 * next call waits for its reset (up to REDDIT_RATE_LIMIT_MAX_WAIT_MS) or fails `rate_limited`
 * with the time left, instead of earning a 429.
 */
export class RedditRateWindows {
  readonly #windows = new Map<string, Window>();

  record(key: string, headers: Headers, now = Date.now()): void {
    const remaining = Number.parseFloat(headers.get('x-ratelimit-remaining') ?? '');
    const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    this.#windows.set(key, { remaining, resetAt: now + Math.max(0, reset) * 1000 });
    if (this.#windows.size > 10_000) this.#windows.delete(this.#windows.keys().next().value!);
  }

  /** Milliseconds to wait before the next call of this login (0: go). */
  waitMs(key: string, now = Date.now()): number {
    const window = this.#windows.get(key);
    if (!window || window.remaining >= 1 || window.resetAt <= now) return 0;
    return window.resetAt - now;
  }

  /** Seconds left in the window, for a 429's retry-after. */
  resetMs(key: string, now = Date.now()): number | undefined {
    const window = this.#windows.get(key);
    return window && window.resetAt > now ? window.resetAt - now : undefined;
  }
}

export interface RedditRequest {
  method?: 'GET' | 'POST';
  query?: Record<string, string>;
  form?: Record<string, string>;
}

/** Calls to the OAuth host with the bearer token, the required User-Agent and the rate-limit window. */
export class RedditApi {
  readonly #config: RedditConfig;
  readonly #token: RedditToken;
  readonly #windows: RedditRateWindows;
  readonly #signal: AbortSignal | undefined;
  readonly #key: string;

  constructor(config: RedditConfig, token: RedditToken, windows: RedditRateWindows, signal?: AbortSignal) {
    this.#config = config;
    this.#token = token;
    this.#windows = windows;
    this.#signal = signal;
    this.#key = createHash('sha256').update(token.refreshToken).digest('base64url');
  }

  get token(): RedditToken {
    return this.#token;
  }

  /** `https:` for Reddit; a test or proxy API URL may be plain http. */
  get protocol(): string {
    return new URL(this.#config.apiUrl).protocol;
  }

  /** The answer's JSON; a failed answer is thrown classified. A 401 refreshes the token once. */
  async call<T>(path: string, request: RedditRequest, what: string): Promise<T> {
    const { response, body } = await this.answer(path, request, what);
    if (!response.ok) throw this.failure(response, body, what);
    return body as T;
  }

  /** The answer as it is, for a caller that reads a refusal itself (after the 401 refresh). */
  async answer(
    path: string,
    request: RedditRequest,
    what: string,
  ): Promise<{ response: Response; body: unknown }> {
    const response = await this.#send(path, request, what);
    return { response, body: await readJson(response) };
  }

  failure(response: Response, body: unknown, what: string): PlatformError {
    return redditHttpError(response, body, what, this.#windows.resetMs(this.#key));
  }

  async #send(path: string, request: RedditRequest, what: string): Promise<Response> {
    const first = await this.#once(path, request, what);
    if (first.status !== 401 || this.#token.fresh) return first;
    await first.body?.cancel();
    await this.#token.refresh();
    return this.#once(path, request, what);
  }

  async #once(path: string, request: RedditRequest, what: string): Promise<Response> {
    await this.#awaitWindow(what);
    const url = new URL(`${this.#config.apiUrl}${path}`);
    // raw_json=1: Reddit otherwise HTML-escapes &, < and > in the JSON it answers.
    url.searchParams.set('raw_json', '1');
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const response = await platformFetch(url, {
      method: request.method ?? (request.form ? 'POST' : 'GET'),
      headers: {
        authorization: `Bearer ${await this.#token.get()}`,
        'user-agent': this.#config.userAgent,
        accept: 'application/json',
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(request.form ? { body: new URLSearchParams(request.form).toString() } : {}),
      signal: this.#signal,
    });
    this.#windows.record(this.#key, response.headers);
    return response;
  }

  async #awaitWindow(what: string): Promise<void> {
    const wait = this.#windows.waitMs(this.#key);
    if (wait <= 0) return;
    if (wait > this.#config.maxRateLimitWaitMs)
      throw new PlatformError('rate_limited', `Reddit's rate limit for this login is spent before ${what}`, {
        retryAfterMs: wait,
      });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      this.#signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(
            new PlatformError('timeout', 'Publishing was cancelled or ran out of time', { retryable: false }),
          );
        },
        { once: true },
      );
    });
  }
}
