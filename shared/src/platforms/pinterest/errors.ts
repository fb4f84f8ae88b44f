import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/** Pinterest API v5 error body: `{ code: number, message: string }`. */
interface PinterestErrorBody {
  code?: number;
  message?: string;
}

/** How long until Pinterest's rate-limit window resets: `Retry-After`, else `X-RateLimit-Reset` (seconds). */
export function pinterestWaitMs(headers: Headers): number | undefined {
  const retryAfter = parseRetryAfter(headers.get('retry-after'));
  if (retryAfter !== undefined) return retryAfter;
  const reset = Number(headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;
}

/** Classifies a Pinterest API v5 error answer; `what` names the request ("the pin", "the board"). */
export function pinterestError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const error = (body ?? {}) as PinterestErrorBody;
  const said = typeof error.message === 'string' && error.message ? `: ${error.message.slice(0, 300)}` : '';
  const init = { status };
  if (status === 401) {
    return new PlatformError(
      'needs_reconnect',
      `Pinterest no longer accepts this access token (expired or revoked); reconnect the account${said}`,
      init,
    );
  }
  if (status === 429) {
    const wait = pinterestWaitMs(headers);
    return new PlatformError('rate_limited', `Pinterest rate limit reached during ${what}${said}`, {
      ...init,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status >= 500)
    return new PlatformError(
      'platform_unavailable',
      `Pinterest is unavailable (HTTP ${status})${said}`,
      init,
    );
  if (status === 403) {
    if (/scope|permission to access|consumer type/i.test(said)) {
      return new PlatformError(
        'needs_reconnect',
        `The Pinterest connection lacks a permission (boards:read, pins:write); reconnect the account${said}`,
        init,
      );
    }
    return new PlatformError(
      'target_unreachable',
      `Pinterest does not let this login use ${what}${said}`,
      init,
    );
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `Pinterest could not find ${what}${said}`, init);
  if (/\b(image|video|media|url|cover)\b/i.test(said)) {
    return new PlatformError('media_rejected', `Pinterest could not use the media of ${what}${said}`, init);
  }
  if (status >= 400) return new PlatformError('content_rejected', `Pinterest rejected ${what}${said}`, init);
  return new PlatformError('internal', `Pinterest answered HTTP ${status} to ${what}${said}`, init);
}

/** An error answer of `/v5/oauth/token`. */
export function pinterestTokenError(status: number, body: unknown, what: string): PlatformError {
  const answer = (body ?? {}) as PinterestErrorBody & { error?: string; error_description?: string };
  const said = answer.message || answer.error_description || answer.error;
  const detail = said ? `: ${String(said).slice(0, 300)}` : '';
  if (status >= 500 || status === 429) {
    return new PlatformError(
      status === 429 ? 'rate_limited' : 'platform_unavailable',
      `Pinterest could not answer ${what} (HTTP ${status})${detail}`,
      { status },
    );
  }
  if (/client|app|consumer/i.test(String(said ?? '')) && status === 401) {
    return new PlatformError(
      'credentials_invalid',
      `Pinterest refused the app id or secret during ${what}${detail}`,
      { status },
    );
  }
  return new PlatformError(
    'needs_reconnect',
    `Pinterest refused ${what} (expired or revoked); reconnect the account${detail}`,
    { status },
  );
}
