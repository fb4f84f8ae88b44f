import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { remoteText } from '../../http/remote-text.ts';

/** The error body every XRPC endpoint answers with. */
export interface XrpcErrorBody {
  error?: string;
  message?: string;
}

/** An XRPC failure before classification; session handling looks at `error` (ExpiredToken) first. */
export class XrpcError extends Error {
  readonly status: number;
  readonly error: string | undefined;
  readonly headers: Headers;

  constructor(status: number, body: XrpcErrorBody | undefined, headers: Headers) {
    super(remoteText(body?.message) || body?.error || `HTTP ${status}`);
    this.name = 'XrpcError';
    this.status = status;
    this.error = body?.error;
    this.headers = headers;
  }
}

export interface XrpcRequest {
  /** Query (GET) or procedure (POST). */
  method: 'GET' | 'POST';
  nsid: string;
  token?: string;
  /** Query parameters; an array repeats the parameter (`uris` of `app.bsky.feed.getPosts`). */
  params?: Record<string, string | readonly string[]>;
  /** A JSON body, or raw bytes with their content type (uploadBlob). */
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The account's service is user-chosen on the Scheduler: its safe fetch, when given. */
  fetch?: FetchLike | undefined;
}

/** Calls `/xrpc/<nsid>` on a PDS; throws XrpcError on an error answer, PlatformError on transport failure. */
export async function xrpc<T>(serviceUrl: string, request: XrpcRequest): Promise<T> {
  const url = new URL(`${serviceUrl}/xrpc/${request.nsid}`);
  for (const [name, value] of Object.entries(request.params ?? {})) {
    if (typeof value === 'string') url.searchParams.set(name, value);
    else for (const one of value) url.searchParams.append(name, one);
  }
  const headers: Record<string, string> = {};
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let body: BodyInit | undefined;
  if (request.body instanceof Blob) {
    body = request.body;
    headers['content-type'] = request.contentType ?? (request.body.type || 'application/octet-stream');
  } else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const response = await platformFetch(url, {
    method: request.method,
    headers,
    body,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
    ...(request.fetch ? { fetch: request.fetch } : {}),
  });
  const parsed = (await readJson(response)) as Record<string, unknown> | undefined;
  if (!response.ok) throw new XrpcError(response.status, asErrorBody(parsed), response.headers);
  return parsed as T;
}

function asErrorBody(value: Record<string, unknown> | undefined): XrpcErrorBody | undefined {
  if (!value || typeof value !== 'object') return undefined;
  return {
    ...(typeof value.error === 'string' && /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(value.error)
      ? { error: value.error }
      : {}),
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
  };
}

const credentialErrors = new Set([
  'AuthenticationRequired',
  'AuthFactorTokenRequired',
  'InvalidToken',
  'ExpiredToken',
]);
const unreachableErrors = new Set([
  'AccountTakedown',
  'AccountDeactivated',
  'RepoTakendown',
  'RepoDeactivated',
  'RepoNotFound',
]);
const mediaErrors = new Set([
  'BlobTooLarge',
  'InvalidBlob',
  'InvalidMimeType',
  'InvalidImageDimensions',
  'PayloadTooLarge',
]);

/** Maps an XRPC failure to our error codes, keeping Bluesky's own message (it never contains credentials). */
export function classifyXrpcError(error: XrpcError): PlatformError {
  const { status } = error;
  const detail = error.message;
  const init = { status, cause: error };
  if (status === 429 || error.error === 'RateLimitExceeded') {
    return new PlatformError('rate_limited', `Bluesky rate limit reached: ${detail}`, {
      ...init,
      ...retryAfter(error.headers),
    });
  }
  if (error.error && unreachableErrors.has(error.error)) {
    return new PlatformError('target_unreachable', `Bluesky account unavailable: ${detail}`, init);
  }
  if (status === 401 || (error.error && credentialErrors.has(error.error))) {
    return new PlatformError('credentials_invalid', `Bluesky refused the credentials: ${detail}`, init);
  }
  if (status === 413 || (error.error && mediaErrors.has(error.error))) {
    return new PlatformError('media_rejected', `Bluesky rejected the media: ${detail}`, init);
  }
  if (status >= 500) {
    return new PlatformError(
      'platform_unavailable',
      `Bluesky is unavailable (HTTP ${status}): ${detail}`,
      init,
    );
  }
  if (status === 403)
    return new PlatformError('target_unreachable', `Bluesky refused the action: ${detail}`, init);
  return new PlatformError('content_rejected', `Bluesky rejected the post: ${detail}`, init);
}

/** Bluesky sends `ratelimit-reset` as epoch seconds; a proxy in front may send Retry-After instead. */
function retryAfter(headers: Headers): { retryAfterMs?: number } {
  const fromRetryAfter = parseRetryAfter(headers.get('retry-after'));
  if (fromRetryAfter !== undefined) return { retryAfterMs: fromRetryAfter };
  const reset = Number(headers.get('ratelimit-reset'));
  if (!headers.get('ratelimit-reset') || !Number.isFinite(reset)) return {};
  return { retryAfterMs: Math.max(0, reset * 1000 - Date.now()) };
}
