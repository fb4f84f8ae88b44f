import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/** What the request was doing, so a refusal lands on the right side. */
export type LemmyOperation = 'login' | 'community' | 'post' | 'comment' | 'image' | 'read';

/** Lemmy 0.19 answers errors as `{ "error": "<snake_case type>", "message"?: … }`. */
export function lemmyErrorType(body: unknown): string {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string')
    return body.error.slice(0, 80);
  return '';
}

/** The session token is no longer accepted: log in again (when there is a password) and retry once. */
export function isStaleSession(status: number, type: string): boolean {
  return status === 401 || type === 'not_logged_in' || type === 'incorrect_login_token';
}

const loginRefusals = new Set([
  'incorrect_login',
  'missing_totp_token',
  'incorrect_totp_token',
  'email_not_verified',
  'registration_application_pending',
  'registration_denied',
]);
const accountRefusals = new Set([
  'banned_from_community',
  'site_ban',
  'only_mods_can_post_in_community',
  'deleted',
  'person_is_banned_from_site',
]);

/** Maps a Lemmy error answer to our codes, keeping Lemmy's error type (a stable snake_case word). */
export function lemmyError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: LemmyOperation,
): PlatformError {
  const type = lemmyErrorType(body);
  const detail = type || `HTTP ${status}`;
  const init = { status };
  if (status === 429 || type === 'rate_limit_error') {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
    return new PlatformError('rate_limited', `Lemmy rate limit reached (${detail})`, {
      ...init,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (loginRefusals.has(type))
    return new PlatformError('credentials_invalid', `Lemmy refused the login (${detail})`, init);
  if (isStaleSession(status, type))
    return new PlatformError('needs_reconnect', `Lemmy refused the session (${detail})`, init);
  if (accountRefusals.has(type) || status === 403)
    return new PlatformError(
      'target_unreachable',
      `Lemmy refused the account in this community (${detail})`,
      init,
    );
  if (type === 'couldnt_find_community' || (status === 404 && operation === 'community'))
    return new PlatformError('target_unreachable', `Lemmy could not find the community (${detail})`, init);
  if (status === 404) return new PlatformError('target_unreachable', `No Lemmy API there (${detail})`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Lemmy is unavailable (HTTP ${status})`, init);
  if (operation === 'image' || status === 413)
    return new PlatformError('media_rejected', `Lemmy rejected the image (${detail})`, init);
  return new PlatformError('content_rejected', `Lemmy rejected the post (${detail})`, init);
}
