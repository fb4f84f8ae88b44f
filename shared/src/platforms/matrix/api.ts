import { PlatformError } from '../../errors.ts';
import { defaultRequestTimeoutMs, platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { type MatrixOperation, matrixError } from './errors.ts';

export interface MatrixRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** From the base, e.g. `/_matrix/client/v3/account/whoami`; path parameters already encoded. */
  path: string;
  operation: MatrixOperation;
  json?: unknown;
  /** A raw body (an upload) with its type. */
  upload?: { body: Blob; contentType: string; bytes: number };
  /** Whether to send the access token (versions and discovery need none). */
  authenticated?: boolean;
}

/** Generous time per byte for uploads (about 1 MB/s) on top of the normal timeout. */
const uploadMsPerByte = 1 / 1000;

/**
 * One account's calls to its homeserver: the token as a Bearer header (query-string tokens are
 * deprecated since v1.11), JSON bodies, Matrix's error format mapped in one place. The homeserver
 * is user-chosen, so the Scheduler passes its SSRF-safe fetch.
 */
export class MatrixApi {
  readonly base: string;
  readonly #accessToken: string;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  constructor(
    base: string,
    accessToken: string,
    signal: AbortSignal | undefined,
    fetch: FetchLike | undefined,
  ) {
    this.base = base;
    this.#accessToken = accessToken;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  async request<T>(request: MatrixRequest): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.authenticated !== false) headers.authorization = `Bearer ${this.#accessToken}`;
    let body: BodyInit | undefined;
    if (request.upload) {
      body = request.upload.body;
      headers['content-type'] = request.upload.contentType;
    } else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const response = await platformFetch(`${this.base}${request.path}`, {
      method: request.method,
      headers,
      body,
      timeoutMs: defaultRequestTimeoutMs + Math.ceil((request.upload?.bytes ?? 0) * uploadMsPerByte),
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    const parsed = await readJson(response);
    if (!response.ok) throw matrixError(response.status, parsed, response.headers, request.operation);
    if (!parsed || typeof parsed !== 'object' || 'nonJsonBody' in parsed) {
      throw new PlatformError(
        'platform_unavailable',
        `${new URL(this.base).host} did not answer like a Matrix homeserver`,
        { status: response.status },
      );
    }
    return parsed as T;
  }
}

/** A path segment: room ids, aliases, user ids and transaction ids are percent-encoded. */
export const segment = (value: string): string => encodeURIComponent(value);
