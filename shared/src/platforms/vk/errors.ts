import { PlatformError, type PlatformErrorCode } from '../../errors.ts';
import { remoteText } from '../../http/remote-text.ts';

/** VK's error answer (HTTP 200): `{ error: { error_code, error_msg, request_params } }`. */
export interface VkErrorBody {
  error_code?: number;
  error_msg?: string;
}

/** What VK's documented error codes (https://dev.vk.com/en/reference/errors) become. */
const codes: Record<
  number,
  { code: PlatformErrorCode; retryable?: boolean; retryAfterMs?: number; hint?: string }
> = {
  1: { code: 'platform_unavailable' },
  5: { code: 'needs_reconnect', hint: 'VK refused the access token; reconnect the account' },
  6: { code: 'rate_limited', retryAfterMs: 1_000 },
  7: { code: 'needs_reconnect', hint: 'the token lacks a right (wall, photos); reconnect with them' },
  8: { code: 'content_rejected' },
  9: { code: 'rate_limited', retryAfterMs: 15 * 60_000, hint: 'VK flood control: too many similar posts' },
  10: { code: 'platform_unavailable' },
  14: {
    code: 'rate_limited',
    retryable: false,
    hint: 'VK asks for a captcha: post once on vk.com, then retry',
  },
  15: { code: 'target_unreachable' },
  17: { code: 'needs_reconnect', hint: 'VK asks the user to validate the login; reconnect the account' },
  18: { code: 'target_unreachable', hint: 'the page is deleted or blocked' },
  27: {
    code: 'needs_reconnect',
    hint: 'a community token cannot post here; use an administrator’s user token',
  },
  28: { code: 'credentials_invalid', hint: 'an app token cannot post; use a user token' },
  29: { code: 'rate_limited', retryAfterMs: 60 * 60_000, hint: 'the daily limit of this method is reached' },
  30: { code: 'target_unreachable', hint: 'the profile is private' },
  100: { code: 'content_rejected' },
  113: { code: 'target_unreachable', hint: 'no such user' },
  121: { code: 'media_rejected' },
  129: { code: 'media_rejected' },
  200: { code: 'target_unreachable' },
  203: { code: 'target_unreachable', hint: 'no access to the community' },
  210: { code: 'target_unreachable' },
  214: { code: 'target_unreachable', hint: 'posting on this wall is not allowed' },
  219: { code: 'content_rejected' },
  220: { code: 'content_rejected' },
  222: { code: 'content_rejected', hint: 'links are not allowed here' },
  224: { code: 'content_rejected' },
};

/** Classifies a VK error; `what` names the call ("the wall post", "the photo upload"). */
export function vkError(error: VkErrorBody, what: string): PlatformError {
  const number = typeof error.error_code === 'number' ? error.error_code : 0;
  const known = codes[number];
  const said = remoteText(error.error_msg) ?? 'no message';
  const message = `VK refused ${what} (error ${number}: ${said})${known?.hint ? `: ${known.hint}` : ''}`;
  if (!known)
    return new PlatformError(/photo|upload/.test(what) ? 'media_rejected' : 'content_rejected', message);
  return new PlatformError(known.code, message, {
    ...(known.retryable === undefined ? {} : { retryable: known.retryable }),
    ...(known.retryAfterMs === undefined ? {} : { retryAfterMs: known.retryAfterMs }),
  });
}
