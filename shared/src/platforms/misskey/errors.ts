import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a client error lands on the right side: the note or a file. */
export type MisskeyOperation = 'note' | 'reply' | 'drive' | 'account' | 'meta' | 'show';

/** Misskey's error body: `{ error: { message, code, id, kind?, info? } }`. */
export interface MisskeyErrorBody {
  message?: string;
  code?: string;
  id?: string;
  info?: Record<string, unknown>;
}

export function errorOf(body: unknown): MisskeyErrorBody {
  if (body && typeof body === 'object' && 'error' in body && body.error && typeof body.error === 'object')
    return body.error as MisskeyErrorBody;
  return {};
}

const reconnect = new Set([
  'CREDENTIAL_REQUIRED',
  'AUTHENTICATION_FAILED',
  'PERMISSION_DENIED',
  'ACCESS_DENIED',
]);

/**
 * Maps a Misskey error answer to our codes, keeping Misskey's message and code. A refused or
 * under-permitted token needs a new token (`needs_reconnect`); a suspended account cannot post.
 */
export function misskeyError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: MisskeyOperation,
): PlatformError {
  const error = errorOf(body);
  const code = typeof error.code === 'string' ? error.code : '';
  const detail =
    [remoteText(error.message), code && `(${code.slice(0, 60)})`].filter(Boolean).join(' ') ||
    `HTTP ${status}`;
  const init = { status };
  if (status === 429 || code === 'RATE_LIMIT_EXCEEDED')
    return new PlatformError('rate_limited', `Misskey rate limit reached: ${detail}`, {
      ...init,
      ...retryAfter(headers, error),
    });
  if (reconnect.has(code) || status === 401)
    return new PlatformError('needs_reconnect', `Misskey refused the access token: ${detail}`, init);
  if (code === 'YOUR_ACCOUNT_SUSPENDED' || code === 'YOUR_ACCOUNT_MOVED' || status === 403)
    return new PlatformError('target_unreachable', `Misskey refused the account: ${detail}`, init);
  if (status === 404) return new PlatformError('target_unreachable', `No Misskey API there: ${detail}`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Misskey is unavailable (HTTP ${status})`, init);
  if (operation === 'drive' || status === 413)
    return new PlatformError('media_rejected', `Misskey rejected the file: ${detail}`, init);
  return new PlatformError('content_rejected', `Misskey rejected the note: ${detail}`, init);
}

/** Retry-After when sent; else the rate limiter's `info.resetMs` (newer Misskey) or X-RateLimit-Reset seconds. */
function retryAfter(headers: Headers, error: MisskeyErrorBody): { retryAfterMs?: number } {
  const fromHeader = parseRetryAfter(headers.get('retry-after'));
  if (fromHeader !== undefined) return { retryAfterMs: fromHeader };
  const resetMs = Number(error.info?.resetMs);
  if (Number.isFinite(resetMs) && resetMs >= 0) return { retryAfterMs: resetMs };
  const reset = Number(headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? { retryAfterMs: reset * 1000 } : {};
}
