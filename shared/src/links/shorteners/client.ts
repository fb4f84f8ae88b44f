import { readJsonCapped } from '../../http/capped-body.ts';
import { withDeadline } from '../../http/deadline.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { UnsafeUrlError } from '../../http/safe-fetch.ts';

export const shortenerProviders = ['shlink', 'dub', 'kutt'] as const;
export type ShortenerProvider = (typeof shortenerProviders)[number];

/** A workspace's shortener, as the client needs it (the key decrypted by the caller). */
export interface ShortenerSettings {
  provider: ShortenerProvider;
  /** The instance's base URL (Shlink, Kutt; Dub defaults to `https://api.dub.co`). */
  apiUrl: string;
  apiKey: string;
  /** A custom short domain the account owns; the provider's default when absent. */
  domain?: string;
}

/** A link the shortener made: what to post, and what to ask its clicks with later. */
export interface ShortLink {
  shortUrl: string;
  /** The provider's handle on the link: Shlink short code, Dub link id, Kutt link id. */
  ref: string;
}

export type ShortenerErrorCode =
  | 'invalid_key'
  | 'rate_limited'
  | 'invalid_url'
  | 'not_found'
  | 'unavailable'
  | 'timeout'
  | 'unreachable';

/** Why the shortener did not answer with a link. Messages name the provider's words, never the key. */
export class ShortenerError extends Error {
  override name = 'ShortenerError';
  readonly code: ShortenerErrorCode;
  readonly status: number | undefined;
  /** Seconds the provider asked to wait (`Retry-After`), on 429. */
  readonly retryAfter: number | undefined;
  constructor(
    code: ShortenerErrorCode,
    message: string,
    extra: { status?: number; retryAfter?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.status = extra.status;
    this.retryAfter = extra.retryAfter;
  }
}

export interface Shortener {
  readonly provider: ShortenerProvider;
  shorten(longUrl: string, signal?: AbortSignal): Promise<ShortLink>;
  /** Total clicks (visits) of a link this shortener made. */
  clicks(ref: string, signal?: AbortSignal): Promise<number>;
}

export interface ShortenerClientOptions {
  /** The fetch to reach the instance with: the SSRF-safe one for user-chosen hosts. */
  fetch: FetchLike;
  /** Per request; a shortener is an extra on a publish, so it gets little time (default 5 s). */
  timeoutMs?: number;
}

/** The base URL without trailing slashes, so `{apiUrl}/rest/…` never has `//`. */
export function baseUrl(apiUrl: string): string {
  return apiUrl.replace(/\/+$/, '');
}

/**
 * One JSON request to a shortener: the deadline, the size cap on the reply, and the provider's
 * failure mapped to a `ShortenerError` (`describe` reads the provider's own error body).
 */
export async function shortenerRequest(
  options: ShortenerClientOptions,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal | undefined },
  describe: (body: unknown) => string | undefined,
): Promise<unknown> {
  const deadline = withDeadline(init.signal, options.timeoutMs ?? 5_000);
  try {
    let response: Response;
    try {
      response = await options.fetch(url, {
        method: init.method,
        headers: {
          accept: 'application/json',
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: deadline.signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (deadline.timedOut) throw new ShortenerError('timeout', 'The shortener did not answer in time');
      if (error instanceof UnsafeUrlError)
        throw new ShortenerError('unreachable', `The shortener's address is not allowed: ${error.message}`);
      throw new ShortenerError('unreachable', 'The shortener could not be reached');
    }
    let body: unknown;
    try {
      body = await readJsonCapped(response, 1024 * 1024);
    } catch {
      if (deadline.timedOut) throw new ShortenerError('timeout', 'The shortener did not answer in time');
      body = undefined;
    }
    if (response.ok && body !== undefined) return body;
    const said = describe(body);
    const status = response.status;
    const words = said ? `: ${said}` : '';
    if (response.ok)
      throw new ShortenerError('unavailable', 'The shortener answered something that is not JSON');
    if (status === 401 || status === 403)
      throw new ShortenerError('invalid_key', `The shortener refused the API key (HTTP ${status})${words}`, {
        status,
      });
    if (status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ShortenerError('rate_limited', `The shortener asked to slow down (HTTP 429)${words}`, {
        status,
        ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfter } : {}),
      });
    }
    if (status === 404)
      throw new ShortenerError('not_found', `The shortener has no such link (HTTP 404)${words}`, { status });
    if (status === 400 || status === 422)
      throw new ShortenerError('invalid_url', `The shortener refused the link (HTTP ${status})${words}`, {
        status,
      });
    throw new ShortenerError('unavailable', `The shortener failed (HTTP ${status})${words}`, { status });
  } finally {
    deadline.dispose();
  }
}

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function stringField(value: unknown, field: string): string {
  const v = record(value)[field];
  if (typeof v !== 'string' || v === '')
    throw new ShortenerError('unavailable', `The shortener's answer has no ${field}`);
  return v;
}

export function countField(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new ShortenerError('unavailable', 'The shortener answered no click count');
  return Math.floor(value);
}

/** At most 200 characters of what a provider said, so an error body never floods a warning. */
export function clip(text: unknown): string | undefined {
  return typeof text === 'string' && text ? text.slice(0, 200) : undefined;
}
