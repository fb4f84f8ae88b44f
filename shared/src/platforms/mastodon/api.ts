import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
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
  readonly #accessToken: string | undefined;
  readonly #signal: AbortSignal | undefined;

  constructor(origin: string, accessToken: string | undefined, signal?: AbortSignal) {
    this.origin = origin;
    this.#accessToken = accessToken;
    this.#signal = signal;
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
    });
    const parsed = await readJson(response);
    if (!response.ok) throw mastodonError(response.status, parsed, response.headers, request.operation);
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || 'nonJsonBody' in parsed) {
      throw new PlatformError('platform_unavailable', `Mastodon answered ${request.path} without JSON`, {
        status: response.status,
      });
    }
    return { status: response.status, body: parsed as T };
  }
}
