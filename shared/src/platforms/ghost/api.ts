import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { type GhostOperation, ghostError } from './errors.ts';
import { adminToken } from './token.ts';

/** The Admin API version these calls are written against (Ghost answers older clients too). */
export const ghostAcceptVersion = 'v5.0';

export interface GhostRequest {
  method: 'GET' | 'POST';
  /** Under `/ghost/api/admin`, with Ghost's trailing slash: `/posts/`. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: FormData;
  operation: GhostOperation;
  /** False for the public `/site/` endpoint. */
  authenticated?: boolean;
  timeoutMs?: number;
}

/**
 * One account's calls to its Ghost site's Admin API: a fresh token per request, the
 * `Accept-Version` header, redirects refused (a redirect to another admin domain would drop the
 * token), error mapping in one place.
 */
export class GhostApi {
  readonly site: string;
  readonly host: string;
  readonly #adminApiKey: string;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  /** `fetch`: the site is user-chosen on the Scheduler, which passes its SSRF-safe fetch. */
  constructor(site: string, adminApiKey: string, signal?: AbortSignal, fetch?: FetchLike) {
    this.site = site;
    this.host = new URL(site).host;
    this.#adminApiKey = adminApiKey;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  async request<T>(request: GhostRequest): Promise<T> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-version': ghostAcceptVersion,
    };
    if (request.authenticated !== false)
      headers.authorization = `Ghost ${await adminToken(this.#adminApiKey)}`;
    let body: BodyInit | undefined;
    if (request.form) body = request.form;
    else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const query = new URLSearchParams(request.query).toString();
    const response = await platformFetch(
      `${this.site}/ghost/api/admin${request.path}${query ? `?${query}` : ''}`,
      {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        ...(this.#signal ? { signal: this.#signal } : {}),
        ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
        ...(this.#fetch ? { fetch: this.#fetch } : {}),
      },
    );
    const parsed = await readJson(response);
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      throw new PlatformError(
        'target_unreachable',
        `Ghost at ${this.host} redirects its Admin API${location ? ` to ${location.slice(0, 200)}` : ''}; use the address it redirects to (Ghost's admin URL) as the API URL`,
        { status: response.status },
      );
    }
    if (!response.ok)
      throw ghostError(response.status, parsed, response.headers, request.operation, this.host);
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || 'nonJsonBody' in parsed) {
      throw new PlatformError('platform_unavailable', `${this.host} did not answer like a Ghost site`, {
        status: response.status,
      });
    }
    return parsed as T;
  }
}
