import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a 422 lands on the right side: the text or the media. */
export type MastodonOperation = 'status' | 'reply' | 'media' | 'account' | 'instance';

/**
 * Maps a Mastodon error answer to our codes, keeping Mastodon's `error` text (cleaned and cut
 * short by remoteText; account connection on the Scheduler replaces it with fixed wording).
 */
export function mastodonError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: MastodonOperation,
  name = 'Mastodon',
): PlatformError {
  const detail = remoteText(errorText(body)) ?? `HTTP ${status}`;
  const init = { status };
  if (status === 401) {
    return new PlatformError('credentials_invalid', `${name} refused the access token: ${detail}`, init);
  }
  if (status === 403) {
    // A token without write scopes is fixed by a new token; a disabled or suspended login is not.
    if (/scope/i.test(errorText(body) ?? '')) {
      return new PlatformError(
        'credentials_invalid',
        `The ${name} token lacks a needed scope: ${detail}`,
        init,
      );
    }
    return new PlatformError('target_unreachable', `${name} refused the account: ${detail}`, init);
  }
  if (status === 404 && operation === 'reply') {
    // POST /api/v1/statuses with `in_reply_to_id` answers 404 when the post replied to is gone.
    return new PlatformError('content_rejected', `${name} refused the reply: ${detail}`, init);
  }
  if (status === 404 || status === 410) {
    return new PlatformError('target_unreachable', `${name} instance or account not found: ${detail}`, init);
  }
  if (status === 429) {
    return new PlatformError('rate_limited', `${name} rate limit reached: ${detail}`, {
      ...init,
      ...retryAfter(headers),
    });
  }
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `${name} is unavailable (HTTP ${status})`, init);
  }
  if (status === 413 || operation === 'media') {
    return new PlatformError('media_rejected', `${name} rejected the media: ${detail}`, init);
  }
  return new PlatformError('content_rejected', `${name} rejected the post: ${detail}`, init);
}

/** Mastodon's `{ error }`; servers on Laravel (Pixelfed) answer validation as `{ message, errors }`. */
function errorText(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string')
    return body.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return body.message;
  return undefined;
}

/** Retry-After when present; otherwise Mastodon's X-RateLimit-Reset, an ISO 8601 time. */
function retryAfter(headers: Headers): { retryAfterMs?: number } {
  const fromHeader = parseRetryAfter(headers.get('retry-after'));
  if (fromHeader !== undefined) return { retryAfterMs: fromHeader };
  const reset = Date.parse(headers.get('x-ratelimit-reset') ?? '');
  return Number.isNaN(reset) ? {} : { retryAfterMs: Math.max(0, reset - Date.now()) };
}
