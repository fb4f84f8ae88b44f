import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, type RequestOptions, readJson } from '../../http/fetch.ts';
import type { LinkedInConfig } from './config.ts';

/** LinkedIn's error body: `{ status, serviceErrorCode, code, message }`. */
export interface LinkedInErrorBody {
  status?: number;
  serviceErrorCode?: number;
  code?: string;
  message?: string;
}

const reconnectCodes = new Set(['REVOKED_ACCESS_TOKEN', 'EXPIRED_ACCESS_TOKEN', 'INVALID_ACCESS_TOKEN']);

/** Classifies a failed LinkedIn answer. `what` names the request, e.g. "the post". */
export function linkedInError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const error = (body ?? {}) as LinkedInErrorBody;
  const said = describe(error);
  const init = { status };
  if (status === 401) {
    return new PlatformError(
      reconnectCodes.has(error.code ?? '') || error.serviceErrorCode === 65601
        ? 'needs_reconnect'
        : 'credentials_invalid',
      `LinkedIn refused the access token; reconnect the account${said}`,
      init,
    );
  }
  if (status === 429) {
    // Application and member limits are per day (reset at midnight UTC): retrying now cannot help.
    const daily = /\bDAY\b/i.test(error.message ?? '');
    return new PlatformError(
      'rate_limited',
      daily
        ? `LinkedIn's daily limit for ${what} is reached; it resets at midnight UTC${said}`
        : `LinkedIn rate limit reached during ${what}${said}`,
      { ...init, retryable: !daily, retryAfterMs: parseRetryAfter(headers.get('retry-after')) },
    );
  }
  if (status === 403) {
    return new PlatformError(
      'needs_reconnect',
      `LinkedIn refused ${what}: the connection lacks the permission (w_member_social for a member, w_organization_social and an administrator role for a page); reconnect the account${said}`,
      init,
    );
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `LinkedIn does not know ${what}${said}`, init);
  if (status === 413)
    return new PlatformError('media_rejected', `LinkedIn refused the media size${said}`, init);
  if (status === 422 && /duplicate/i.test(error.message ?? '')) {
    return new PlatformError(
      'duplicate_content',
      `LinkedIn refused a duplicate of an earlier post${said}`,
      init,
    );
  }
  if (status === 400 || status === 422) {
    return new PlatformError('content_rejected', `LinkedIn rejected ${what}${said}`, init);
  }
  if (status === 426) {
    return new PlatformError(
      'internal',
      `LinkedIn no longer serves this API version: update LINKEDIN_VERSION${said}`,
      init,
    );
  }
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `LinkedIn is unavailable (HTTP ${status})`, init);
  }
  return new PlatformError('internal', `LinkedIn answered HTTP ${status} to ${what}${said}`, init);
}

function describe(error: LinkedInErrorBody): string {
  const message = typeof error.message === 'string' ? error.message.slice(0, 300) : '';
  const code = typeof error.code === 'string' ? error.code : '';
  if (!message && !code) return '';
  return `: ${message}${code ? ` (${code})` : ''}`;
}

/** Where requests get the bearer token; `refreshOnce` answers whether a new one was obtained. */
export interface TokenSource {
  get(): Promise<string>;
  refreshOnce?(): Promise<boolean>;
}

/** Versioned Rest.li requests with the member's bearer token. */
export class LinkedInApi {
  readonly #config: LinkedInConfig;
  readonly #token: TokenSource;
  readonly #signal: AbortSignal | undefined;

  constructor(config: LinkedInConfig, token: TokenSource, signal?: AbortSignal) {
    this.#config = config;
    this.#token = token;
    this.#signal = signal;
  }

  /** A request under `/rest` (versioned) or `/v2`; throws classified on a failed answer. */
  async request(path: string, init: RequestOptions & { json?: unknown }, what: string): Promise<Response> {
    const { json, headers, ...rest } = init;
    const send = async () =>
      platformFetch(`${this.#config.apiUrl}${path}`, {
        ...rest,
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        signal: this.#signal,
        headers: {
          authorization: `Bearer ${await this.#token.get()}`,
          'linkedin-version': this.#config.version,
          'x-restli-protocol-version': '2.0.0',
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(headers as Record<string, string> | undefined),
        },
      });
    let response = await send();
    // A token refused before its stated expiry: one refresh, when the connection has a refresh token.
    if (response.status === 401 && (await this.#token.refreshOnce?.())) {
      await response.body?.cancel();
      response = await send();
    }
    if (!response.ok) throw linkedInError(response.status, await readJson(response), response.headers, what);
    return response;
  }

  async json<T>(path: string, init: RequestOptions & { json?: unknown }, what: string): Promise<T> {
    const response = await this.request(path, init, what);
    return ((await readJson(response)) ?? {}) as T;
  }

  /** A PUT of bytes to an upload URL LinkedIn handed out (it may live on another host). */
  async upload(
    url: string,
    body: Uint8Array<ArrayBuffer> | Blob,
    what: string,
    timeoutMs: number,
  ): Promise<Response> {
    const response = await platformFetch(url, {
      method: 'PUT',
      body,
      signal: this.#signal,
      timeoutMs,
      headers: {
        authorization: `Bearer ${await this.#token.get()}`,
        'content-type': 'application/octet-stream',
      },
    });
    if (!response.ok) throw linkedInError(response.status, await readJson(response), response.headers, what);
    return response;
  }
}

/** `urn:li:image:C4E…` as a path segment. */
export function urnPath(urn: string): string {
  return encodeURIComponent(urn);
}
