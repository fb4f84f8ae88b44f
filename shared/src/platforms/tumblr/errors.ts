import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/**
 * Tumblr API v2 error answers: `{ meta: { status, msg }, response: [], errors: [{ title, code,
 * detail }] }`. The token endpoint answers RFC 6749 `{ error, error_description }`.
 */
interface TumblrErrorBody {
  meta?: { status?: number; msg?: string };
  errors?: { title?: string; code?: number; detail?: string }[];
}

function describe(body: unknown): string {
  const parsed = (body ?? {}) as TumblrErrorBody;
  const parts = (parsed.errors ?? [])
    .map((e) => remoteText(e?.detail) ?? remoteText(e?.title))
    .filter((part): part is string => part !== undefined);
  if (parts.length === 0 && remoteText(parsed.meta?.msg)) parts.push(remoteText(parsed.meta?.msg)!);
  const text = [...new Set(parts)].join('; ').slice(0, 400);
  return text ? `: ${text}` : '';
}

/**
 * How long Tumblr asks us to wait: `Retry-After` when sent, else the exhausted window's
 * `X-Ratelimit-Perhour-Reset` / `X-Ratelimit-Perday-Reset` (seconds until it resets).
 */
export function tumblrRetryAfterMs(headers: Headers): number | undefined {
  const retryAfter = parseRetryAfter(headers.get('retry-after'));
  if (retryAfter !== undefined) return retryAfter;
  const waits: number[] = [];
  for (const window of ['perhour', 'perday']) {
    const remaining = headers.get(`x-ratelimit-${window}-remaining`);
    const reset = Number(headers.get(`x-ratelimit-${window}-reset`));
    if (remaining !== null && Number(remaining) <= 0 && Number.isFinite(reset) && reset >= 0)
      waits.push(reset * 1000);
  }
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

/** Classifies an API v2 error answer; `what` names the request ("the post", "the blog lookup"). */
export function tumblrError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const detail = describe(body);
  const init = { status };
  if (status === 429) {
    const wait = tumblrRetryAfterMs(headers);
    return new PlatformError('rate_limited', `Tumblr rate limit reached for ${what}${detail}`, {
      ...init,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status === 401)
    return new PlatformError(
      'needs_reconnect',
      `Tumblr refused the access token; reconnect the account${detail}`,
      init,
    );
  if (status === 403)
    return new PlatformError(
      'target_unreachable',
      `Tumblr does not let this login post to the blog${detail}`,
      init,
    );
  if (status === 404)
    return new PlatformError('target_unreachable', `Tumblr could not find the blog${detail}`, init);
  if (status === 413)
    return new PlatformError('media_rejected', `Tumblr refused the media size${detail}`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Tumblr is unavailable (HTTP ${status})${detail}`, init);
  if (status === 400) {
    const media = /media|image|video|upload|file/i.test(detail);
    return new PlatformError(
      media ? 'media_rejected' : 'content_rejected',
      `Tumblr rejected ${what}${detail}`,
      init,
    );
  }
  return new PlatformError('internal', `Tumblr answered HTTP ${status} to ${what}${detail}`, init);
}

/** Token endpoint answers. */
export function tumblrTokenError(status: number, body: unknown, headers: Headers): PlatformError {
  const { error, error_description: description } = (body ?? {}) as {
    error?: unknown;
    error_description?: unknown;
  };
  const said =
    typeof error === 'string'
      ? ` (${remoteText(error, 60)}${remoteText(description, 200) ? `: ${remoteText(description, 200)}` : ''})`
      : '';
  if (status === 429) {
    const wait = tumblrRetryAfterMs(headers);
    return new PlatformError('rate_limited', 'Tumblr sign-in is rate limited; retry later', {
      status,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Tumblr sign-in is unavailable (HTTP ${status})`, {
      status,
    });
  if (error === 'invalid_client' || error === 'unauthorized_client')
    return new PlatformError('credentials_invalid', `Tumblr refused the app's client id or secret${said}`, {
      status,
    });
  // invalid_grant: a used, revoked or expired refresh token (or code).
  return new PlatformError(
    'needs_reconnect',
    `Tumblr no longer accepts this connection; reconnect the account${said}`,
    {
      status,
    },
  );
}
