import { PlatformError } from '../errors.ts';
import { capResponse, defaultMaxReplyBytes, ReplyTooLargeError, readTextCapped } from './capped-body.ts';
import { withDeadline } from './deadline.ts';
import { type FetchLike, plainFetch } from './fetch-like.ts';
import { UnsafeUrlError } from './safe-fetch.ts';

export interface RequestOptions extends RequestInit {
  /** Per-request timeout; the caller's signal still applies. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The fetch to send with: the SSRF-safe one for hosts a Scheduler user chose, global fetch for
   * hosts the operator configured (the default).
   */
  fetch?: FetchLike | undefined;
  /** Cap on the reply body (default `MAX_REPLY_BYTES`, 8 MiB); reading past it fails. */
  maxReplyBytes?: number;
}

export const defaultRequestTimeoutMs = 30_000;

/**
 * `fetch` with a timeout and a capped reply body, turning transport failures into retryable
 * PlatformErrors so every publisher classifies them the same way. A URL the safe fetch refuses
 * is a permanent `target_unreachable`: nothing was sent.
 */
export async function platformFetch(url: string | URL, options: RequestOptions = {}): Promise<Response> {
  const {
    timeoutMs = defaultRequestTimeoutMs,
    signal,
    fetch: send = plainFetch,
    maxReplyBytes = defaultMaxReplyBytes(),
    ...init
  } = options;
  const deadline = withDeadline(signal, timeoutMs);
  let response: Response;
  try {
    response = await send(url, { ...init, signal: deadline.signal });
  } catch (error) {
    deadline.dispose();
    if (signal?.aborted)
      throw new PlatformError('timeout', 'Publishing was cancelled or ran out of time', {
        cause: error,
        retryable: false,
      });
    if (deadline.timedOut)
      throw new PlatformError('timeout', `No answer from ${hostOf(url)} within ${timeoutMs} ms`, {
        cause: error,
      });
    if (error instanceof UnsafeUrlError && error.code !== 'fetch_failed' && error.code !== 'host_not_found')
      throw new PlatformError('target_unreachable', error.message, { cause: error, retryable: false });
    throw new PlatformError('network_error', `Could not reach ${hostOf(url)}`, { cause: error });
  }
  // The deadline still bounds reading the body, and is let go of as soon as the body has been
  // read, cancelled or cut off by the cap, not when its timer would have fired.
  try {
    return capResponse(response, maxReplyBytes, deadline.dispose);
  } catch (error) {
    deadline.dispose();
    throw tooLarge(url, error);
  }
}

function tooLarge(url: string | URL, error: unknown): unknown {
  if (!(error instanceof ReplyTooLargeError)) return error;
  return new PlatformError(
    'platform_unavailable',
    `${hostOf(url)} sent a reply larger than ${error.limit} bytes (MAX_REPLY_BYTES); it was not read`,
    { cause: error, retryable: false },
  );
}

function hostOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the platform';
  }
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Reads a JSON body without throwing on bad JSON (platforms sometimes answer HTML on errors), at
 * most `limit` bytes: a bigger reply is a permanent PlatformError and the stream is cancelled.
 */
export async function readJson(
  response: Response,
  limit = defaultMaxReplyBytes(),
  /** Rewrites the text before parsing (to quote an id JSON numbers cannot hold exactly). */
  prepare?: (text: string) => string,
): Promise<unknown> {
  let text: string;
  try {
    text = await readTextCapped(response, limit);
  } catch (error) {
    if (error instanceof ReplyTooLargeError) throw tooLarge(response.url || 'the platform', error);
    throw new PlatformError('network_error', 'The reply was cut off', { cause: error });
  }
  if (!text) return undefined;
  try {
    return JSON.parse(prepare ? prepare(text) : text);
  } catch {
    return { nonJsonBody: text.slice(0, 500) };
  }
}
