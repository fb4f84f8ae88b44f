import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { type MisskeyOperation, misskeyError } from './errors.ts';

/**
 * One account's calls to its Misskey server: every endpoint is `POST /api/<name>` with the token
 * as `i` in the JSON body (or a multipart field for uploads), errors mapped in one place.
 */
export class MisskeyApi {
  readonly origin: string;
  readonly #token: string | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  /** `fetch`: the instance is user-chosen on the Scheduler, which passes its SSRF-safe fetch. */
  constructor(origin: string, token: string | undefined, signal?: AbortSignal, fetch?: FetchLike) {
    this.origin = origin;
    this.#token = token;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  /** `POST /api/<endpoint>` with a JSON body (the token added as `i`). */
  call<T>(endpoint: string, operation: MisskeyOperation, body: Record<string, unknown> = {}): Promise<T> {
    return this.#send<T>(endpoint, operation, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.#token ? { i: this.#token, ...body } : body),
    });
  }

  /** `POST /api/<endpoint>` as multipart (drive uploads), the token as the `i` field. */
  upload<T>(endpoint: string, form: FormData, timeoutMs: number): Promise<T> {
    if (this.#token) form.set('i', this.#token);
    return this.#send<T>(endpoint, 'drive', { body: form, timeoutMs });
  }

  async #send<T>(
    endpoint: string,
    operation: MisskeyOperation,
    init: { headers?: Record<string, string>; body: BodyInit; timeoutMs?: number },
  ): Promise<T> {
    const response = await platformFetch(`${this.origin}/api/${endpoint}`, {
      method: 'POST',
      headers: { accept: 'application/json', ...init.headers },
      body: init.body,
      ...(init.timeoutMs ? { timeoutMs: init.timeoutMs } : {}),
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    const parsed = await readJson(response);
    if (!response.ok) throw misskeyError(response.status, parsed, response.headers, operation);
    if (parsed === null || typeof parsed !== 'object' || 'nonJsonBody' in parsed)
      throw new PlatformError(
        'platform_unavailable',
        `${new URL(this.origin).host} did not answer like a Misskey server`,
        {
          status: response.status,
        },
      );
    return parsed as T;
  }
}
