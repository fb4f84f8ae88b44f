import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a refusal lands on the right side. */
export type ListmonkOperation = 'campaign' | 'send' | 'image' | 'account' | 'read';

export interface ListmonkRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Under the server's root: `/api/campaigns`. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  form?: FormData;
  operation: ListmonkOperation;
  timeoutMs?: number;
}

/**
 * One account's calls to its Listmonk server: `Authorization: token <user>:<token>` (an API
 * user, Listmonk v4+), redirects refused (a redirect would drop the header or turn a PUT into a
 * GET), answers unwrapped from `{ data }`, errors (`{ message }`) mapped in one place.
 */
export class ListmonkApi {
  readonly root: string;
  readonly host: string;
  readonly #authorization: string;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  /** `fetch`: the server is user-chosen on the Scheduler, which passes its SSRF-safe fetch. */
  constructor(
    root: string,
    login: { username: string; apiToken: string },
    signal?: AbortSignal,
    fetch?: FetchLike,
  ) {
    this.root = root;
    this.host = new URL(root).host;
    this.#authorization = `token ${login.username}:${login.apiToken}`;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  async request<T>(request: ListmonkRequest): Promise<T> {
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: 'application/json',
    };
    let body: BodyInit | undefined;
    if (request.form) body = request.form;
    else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const query = new URLSearchParams(request.query).toString();
    const response = await platformFetch(`${this.root}${request.path}${query ? `?${query}` : ''}`, {
      method: request.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    const parsed = await readJson(response);
    if (response.status >= 300 && response.status < 400) {
      throw new PlatformError(
        'target_unreachable',
        `Listmonk at ${this.host} redirects its API; use the address it redirects to as the Listmonk URL`,
        { status: response.status },
      );
    }
    if (!response.ok)
      throw listmonkError(response.status, parsed, response.headers, request.operation, this.host);
    const data = (parsed as { data?: unknown } | undefined)?.data;
    if (data === undefined || data === null || typeof data !== 'object') {
      throw new PlatformError('platform_unavailable', `${this.host} did not answer like a Listmonk server`, {
        status: response.status,
      });
    }
    return data as T;
  }
}

/** Maps Listmonk's error answers (`{ message }`) to our codes, keeping its message. */
export function listmonkError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: ListmonkOperation,
  host: string,
): PlatformError {
  const said = remoteText((body as { message?: unknown } | undefined)?.message);
  const detail = said ? `: ${said}` : ` (HTTP ${status})`;
  const init = { status };
  const wait = parseRetryAfter(headers.get('retry-after'));
  const after = wait !== undefined ? { retryAfterMs: wait } : {};
  if (status === 401 || status === 403) {
    // Listmonk answers 403 to a wrong API user or token, and to a role without the permission.
    return new PlatformError(
      'credentials_invalid',
      operation === 'account' || status === 401
        ? `Listmonk at ${host} refused the API user and token${detail}`
        : `Listmonk at ${host} does not let this API user do that${detail}`,
      init,
    );
  }
  if (status === 429)
    return new PlatformError('rate_limited', `Listmonk at ${host} is limiting requests${detail}`, {
      ...init,
      ...after,
    });
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Listmonk at ${host} is unavailable${detail}`, {
      ...init,
      ...after,
    });
  if (status === 404) {
    return new PlatformError(
      'target_unreachable',
      said
        ? `Listmonk at ${host} has no such ${operation === 'account' ? 'list' : 'resource'}${detail}`
        : `No Listmonk API answered at ${host} (HTTP 404); check the URL`,
      init,
    );
  }
  if (operation === 'image')
    return new PlatformError('media_rejected', `Listmonk did not accept the image${detail}`, init);
  return new PlatformError('content_rejected', `Listmonk refused the campaign${detail}`, init);
}
