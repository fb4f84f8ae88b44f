import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { type LemmyOperation, lemmyError, lemmyErrorType } from './errors.ts';
import type { LemmyCredentials } from './options.ts';

export interface LemmyRequest {
  method: 'GET' | 'POST';
  path: string;
  operation: LemmyOperation;
  json?: unknown;
  form?: FormData;
  query?: Record<string, string>;
  timeoutMs?: number;
}

/** Session tokens per instance and user, shared by every call in the process. */
export class LemmySessions {
  readonly #tokens = new Map<string, string>();

  get(key: string): string | undefined {
    return this.#tokens.get(key);
  }

  set(key: string, jwt: string): void {
    this.#tokens.set(key, jwt);
  }

  drop(key: string, jwt: string): void {
    if (this.#tokens.get(key) === jwt) this.#tokens.delete(key);
  }
}

/**
 * One account's calls to its Lemmy instance (API v3, Lemmy 0.19): logs in with the password when
 * it has no session token (`POST /api/v3/user/login` → `jwt`), sends `Authorization: Bearer <jwt>`
 * (and the `jwt` cookie pict-rs reads), and logs in again once when the token is refused.
 */
export class LemmyApi {
  readonly origin: string;
  readonly #credentials: LemmyCredentials;
  readonly #sessions: LemmySessions;
  readonly #key: string;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;
  readonly #onNewToken: ((jwt: string) => void | Promise<void>) | undefined;

  constructor(
    credentials: LemmyCredentials,
    sessions: LemmySessions,
    options: {
      signal?: AbortSignal | undefined;
      fetch?: FetchLike | undefined;
      onNewToken?: (jwt: string) => void | Promise<void>;
    },
  ) {
    this.origin = new URL(credentials.instanceUrl).origin;
    this.#credentials = credentials;
    this.#sessions = sessions;
    this.#key = `${this.origin}\u0000${credentials.username.toLowerCase()}`;
    this.#signal = options.signal;
    this.#fetch = options.fetch;
    this.#onNewToken = options.onNewToken;
  }

  /** An authenticated call; a refused session is renewed once with the password. */
  async call<T>(request: LemmyRequest): Promise<T> {
    const jwt = await this.#session();
    try {
      return await this.send<T>(request, jwt);
    } catch (error) {
      if (
        !(error instanceof PlatformError && error.code === 'needs_reconnect') ||
        this.#credentials.password === undefined
      )
        throw error;
      this.#sessions.drop(this.#key, jwt);
      return this.send<T>(request, await this.#session(true));
    }
  }

  /** One request, with `jwt` when given. */
  async send<T>(request: LemmyRequest, jwt?: string): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (jwt) {
      headers.authorization = `Bearer ${jwt}`;
      headers.cookie = `jwt=${jwt}`;
    }
    let body: BodyInit | undefined;
    if (request.form) body = request.form;
    else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
    const response = await platformFetch(`${this.origin}${request.path}${query}`, {
      method: request.method,
      headers,
      body,
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    });
    const parsed = await readJson(response);
    if (!response.ok || lemmyErrorType(parsed))
      throw lemmyError(response.status, parsed, response.headers, request.operation);
    if (parsed === null || typeof parsed !== 'object' || 'nonJsonBody' in parsed)
      throw new PlatformError(
        'platform_unavailable',
        `${new URL(this.origin).host} did not answer like a Lemmy server`,
        {
          status: response.status,
        },
      );
    return parsed as T;
  }

  async #session(renew = false): Promise<string> {
    if (!renew) {
      const known = this.#sessions.get(this.#key) ?? this.#credentials.jwt;
      if (known) return known;
    }
    const { password } = this.#credentials;
    if (password === undefined)
      throw new PlatformError('needs_reconnect', 'The Lemmy session token expired; reconnect the account');
    const answer = await this.send<{ jwt?: string }>({
      method: 'POST',
      path: '/api/v3/user/login',
      operation: 'login',
      json: { username_or_email: this.#credentials.username, password },
    });
    if (!answer.jwt)
      throw new PlatformError(
        'credentials_invalid',
        'Lemmy answered the login without a session token (is the e-mail verified, the application approved?)',
      );
    this.#sessions.set(this.#key, answer.jwt);
    await this.#onNewToken?.(answer.jwt);
    return answer.jwt;
  }
}
