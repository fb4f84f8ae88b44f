import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/** Google's API error body: `{ error: { code, message, errors: [{ reason, domain }], status } }`. */
interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    errors?: { reason?: string; domain?: string }[];
  };
}

export function googleReason(body: unknown): string | undefined {
  return (body as GoogleErrorBody | undefined)?.error?.errors?.[0]?.reason;
}

const dailyQuota = new Set(['quotaExceeded', 'dailyLimitExceeded']);
const shortTermLimits = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'uploadRateLimitExceeded']);
const channelUnavailable = new Set([
  'forbidden',
  'youtubeSignupRequired',
  'channelClosed',
  'channelSuspended',
  'accountClosed',
  'accountSuspended',
  'videoNotFound',
]);
const mediaReasons = new Set([
  'mediaBodyRequired',
  'invalidImage',
  'badContent',
  'uploadTooLarge',
  'invalidVideoType',
]);

/** Classifies a YouTube Data API error answer. `what` names the request, e.g. "the upload". */
export function googleError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const reason = googleReason(body);
  const detail = describe(body, reason);
  const init = { status };

  if (reason === 'uploadLimitExceeded') {
    return new PlatformError('rate_limited', `The channel reached YouTube's upload limit for now${detail}`, {
      ...init,
      retryable: false,
    });
  }
  if (reason && dailyQuota.has(reason)) {
    // The quota resets at midnight Pacific time: retrying within this request cannot help.
    return new PlatformError(
      'rate_limited',
      `The YouTube API daily quota is used up; it resets at midnight Pacific time${detail}`,
      {
        ...init,
        retryable: false,
      },
    );
  }
  if (status === 429 || (reason && shortTermLimits.has(reason))) {
    return new PlatformError('rate_limited', `YouTube rate limit reached during ${what}${detail}`, {
      ...init,
      retryAfterMs: parseRetryAfter(headers.get('retry-after')),
    });
  }
  if (reason === 'insufficientPermissions' || reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
    return new PlatformError(
      'needs_reconnect',
      `The YouTube connection lacks a needed permission; reconnect the account${detail}`,
      init,
    );
  }
  if (reason && channelUnavailable.has(reason)) {
    return new PlatformError('target_unreachable', `YouTube refused ${what}${detail}`, init);
  }
  if (status === 401) {
    return new PlatformError('credentials_invalid', `YouTube refused the access token${detail}`, init);
  }
  if (status === 403 || status === 404)
    return new PlatformError('target_unreachable', `YouTube refused ${what}${detail}`, init);
  if (status === 413 || (reason && mediaReasons.has(reason))) {
    return new PlatformError('media_rejected', `YouTube refused the media in ${what}${detail}`, init);
  }
  if (status === 400) return new PlatformError('content_rejected', `YouTube rejected ${what}${detail}`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `YouTube is unavailable (HTTP ${status})`, init);
  return new PlatformError('internal', `YouTube answered HTTP ${status} to ${what}${detail}`, init);
}

/** `: The request metadata specifies an invalid video title. (invalidTitle)`; Google's messages may hold HTML links. */
function describe(body: unknown, reason: string | undefined): string {
  const message = (body as GoogleErrorBody | undefined)?.error?.message;
  const text = typeof message === 'string' ? message.replace(/<[^>]*>/g, '').slice(0, 300) : '';
  if (!text && !reason) return '';
  return `: ${text}${reason ? ` (${reason})` : ''}`;
}
