import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { type MastodonOperation, mastodonError } from './errors.ts';

export interface MastodonRequest {
  method: 'GET' | 'POST';
  path: string;
  operation: MastodonOperation;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface MastodonAnswer<T> {
  status: number;
  body: T;
}

/** One account's calls to its instance, with the bearer token and error mapping in one place. */
export class MastodonApi {
  readonly origin: string;
  /** Whose API this is, for error messages: Mastodon, or a server speaking its API (Pixelfed). */
  readonly platformName: string;
  readonly #accessToken: string | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  /** `fetch`: the instance is user-chosen on the Scheduler, which passes its SSRF-safe fetch. */
  constructor(
    origin: string,
    accessToken: string | undefined,
    signal?: AbortSignal,
    fetch?: FetchLike,
    platformName = 'Mastodon',
  ) {
    this.origin = origin;
    this.platformName = platformName;
    this.#accessToken = accessToken;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  async request<T>(request: MastodonRequest): Promise<MastodonAnswer<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (this.#accessToken) headers.authorization = `Bearer ${this.#accessToken}`;
    let body: BodyInit | undefined;
    if (request.form) body = request.form;
    else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const response = await platformFetch(`${this.origin}${request.path}`, {
      method: request.method,
      headers,
      body,
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    const parsed = await readJson(response);
    if (!response.ok)
      throw mastodonError(response.status, parsed, response.headers, request.operation, this.platformName);
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || 'nonJsonBody' in parsed) {
      throw new PlatformError(
        'platform_unavailable',
        `${new URL(this.origin).host} did not answer like a ${this.platformName} server`,
        {
          status: response.status,
        },
      );
    }
    return { status: response.status, body: parsed as T };
  }
}
