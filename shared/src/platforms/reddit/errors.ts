import { PlatformError } from '../../errors.ts';

/**
 * Reddit's error answers (docs/platforms/reddit.md#errors):
 * - `api_type=json` endpoints answer 200 with `{ json: { errors: [[CODE, message, field], …] } }`;
 * - other failures are `{ message, error: <status> }`, with a `reason` for a banned, private or
 *   quarantined subreddit, and a `www-authenticate` header naming `insufficient_scope`.
 */
export type RedditErrorTuple = [string, string?, string?];

const targetCodes = new Set([
  'SUBREDDIT_NOEXIST',
  'SUBREDDIT_NOTALLOWED',
  'SUBREDDIT_REQUIRED',
  'BAD_SR_NAME',
  'USER_BANNED',
  'SUBREDDIT_BANNED',
  'SUBREDDIT_NOTALLOWED_BANNED',
]);
const mediaCodes = new Set(['NO_IMAGES', 'NO_VIDEOS', 'MEDIA_UPLOAD_FAILED', 'BAD_IMAGE', 'BAD_VIDEO']);

/** Reddit's `RATELIMIT` text: "Take a break for 5 minutes before trying again." */
export function rateLimitDelayMs(message: string | undefined): number | undefined {
  const match = /(\d+)\s*(second|minute|hour)s?/i.exec(message ?? '');
  if (!match) return undefined;
  const unit = { second: 1_000, minute: 60_000, hour: 3_600_000 }[match[2]!.toLowerCase()]!;
  return Number(match[1]) * unit;
}

/** The first of a `json.errors` list as a PlatformError. */
export function redditJsonError(errors: readonly RedditErrorTuple[], what: string): PlatformError {
  const [code = 'UNKNOWN', message, field] = errors[0] ?? [];
  const said = `${message ? `: ${String(message).slice(0, 300)}` : ''} (${code}${field ? `, ${field}` : ''})`;
  if (code === 'RATELIMIT')
    return new PlatformError('rate_limited', `Reddit asks to wait before ${what}${said}`, {
      retryAfterMs: rateLimitDelayMs(message),
    });
  if (code === 'USER_REQUIRED')
    return new PlatformError('needs_reconnect', `Reddit no longer accepts this sign-in; reconnect${said}`);
  if (targetCodes.has(code))
    return new PlatformError('target_unreachable', `Reddit refused ${what} in this subreddit${said}`);
  if (mediaCodes.has(code)) return new PlatformError('media_rejected', `Reddit refused the media${said}`);
  return new PlatformError('content_rejected', `Reddit refused ${what}${said}`);
}

interface RedditHttpError {
  message?: unknown;
  error?: unknown;
  reason?: unknown;
  json?: { errors?: RedditErrorTuple[] };
}

/** A failed HTTP answer as a PlatformError; `retryAfterMs` from the rate-limit reset. */
export function redditHttpError(
  response: Response,
  body: unknown,
  what: string,
  retryAfterMs: number | undefined,
): PlatformError {
  const status = response.status;
  const init = { status };
  const shaped = (body ?? {}) as RedditHttpError;
  if (Array.isArray(shaped.json?.errors) && shaped.json.errors.length > 0 && status < 500 && status !== 429)
    return withStatus(redditJsonError(shaped.json.errors, what), status);
  const reason = typeof shaped.reason === 'string' ? shaped.reason : undefined;
  const text = typeof shaped.message === 'string' ? shaped.message.slice(0, 200) : '';
  const said = text || reason ? `: ${[text, reason].filter(Boolean).join(', ')}` : '';
  const authenticate = response.headers.get('www-authenticate') ?? '';
  if (status === 429)
    return new PlatformError('rate_limited', `Reddit rate limit reached during ${what}`, {
      ...init,
      retryAfterMs,
    });
  if (status === 401)
    return new PlatformError('needs_reconnect', `Reddit refused the access token${said}; reconnect`, init);
  if (status === 403 && /insufficient_scope/.test(authenticate))
    return new PlatformError(
      'needs_reconnect',
      'The Reddit sign-in lacks a needed permission; reconnect the account',
      init,
    );
  if (status === 403 || status === 404)
    return new PlatformError('target_unreachable', `Reddit refused ${what}${said}`, init);
  if (status === 413)
    return new PlatformError('media_rejected', `Reddit refused the media as too large`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Reddit is unavailable (HTTP ${status})`, init);
  if (status === 400) return new PlatformError('content_rejected', `Reddit rejected ${what}${said}`, init);
  return new PlatformError('internal', `Reddit answered HTTP ${status} to ${what}${said}`, init);
}

function withStatus(error: PlatformError, status: number): PlatformError {
  return new PlatformError(error.code, error.message, {
    status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
  });
}
