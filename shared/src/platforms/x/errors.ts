import { PlatformError } from '../../errors.ts';

/**
 * X API v2 error bodies are RFC 7807-like problems: `{ title, detail, type, status }`, invalid
 * requests add `errors: [{ message, parameters }]`, client problems add `reason`.
 */
interface XProblem {
  title?: string;
  detail?: string;
  type?: string;
  reason?: string;
  errors?: { message?: string; parameters?: Record<string, unknown> }[];
}

const duplicatePattern = /duplicate content/i;

/** How long to wait for an X rate limit: the soonest exhausted window's `*-reset` (epoch seconds). */
export function rateLimitWaitMs(headers: Headers, now = Date.now()): number | undefined {
  const resets: number[] = [];
  const consider = (remaining: string, reset: string) => {
    const at = Number(headers.get(reset));
    if (!headers.get(reset) || !Number.isFinite(at)) return;
    const left = headers.get(remaining);
    if (left !== null && Number(left) > 0) return;
    resets.push(at * 1000 - now);
  };
  consider('x-rate-limit-remaining', 'x-rate-limit-reset');
  // The per-user 24-hour posting limit has its own headers; when spent, it decides the wait.
  consider('x-user-limit-24hour-remaining', 'x-user-limit-24hour-reset');
  if (resets.length === 0) {
    const retryAfter = Number(headers.get('retry-after'));
    return headers.get('retry-after') && Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined;
  }
  return Math.max(0, Math.max(...resets));
}

/** The words X used, without anything of ours (X never echoes tokens in error bodies). */
function describe(body: unknown): string {
  const problem = (body ?? {}) as XProblem;
  const parts = [problem.detail, ...(problem.errors ?? []).map((e) => e.message)].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  const unique = [...new Set(parts)].join('; ').slice(0, 400);
  return unique ? `: ${unique}` : '';
}

/** Classifies an X API v2 error answer. `what` names the request ("the post", "the media upload"). */
export function xError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const problem = (body ?? {}) as XProblem;
  const detail = describe(body);
  const init = { status };
  if (status === 429) {
    const wait = rateLimitWaitMs(headers);
    return new PlatformError(
      'rate_limited',
      `X rate limit reached for ${what}${wait !== undefined ? `; it resets in ${Math.ceil(wait / 1000)} s` : ''}`,
      { ...init, ...(wait !== undefined ? { retryAfterMs: wait } : {}) },
    );
  }
  if (status === 401) {
    return new PlatformError('credentials_invalid', `X refused the access token${detail}`, init);
  }
  if (status === 402) {
    return new PlatformError(
      'rate_limited',
      `The X app has no API credits left for ${what}; add credits or upgrade the plan in the X developer portal${detail}`,
      { ...init, retryable: false },
    );
  }
  if (status === 403) {
    if (duplicatePattern.test(problem.detail ?? '')) {
      return new PlatformError(
        'duplicate_content',
        'X refused a duplicate: this account already posted the same text recently. Change the text to post it again.',
        init,
      );
    }
    if (problem.reason === 'client-not-enrolled' || problem.title === 'Client Forbidden') {
      return new PlatformError(
        'credentials_invalid',
        `The X app is not allowed to use this endpoint (attach it to a project with write access)${detail}`,
        init,
      );
    }
    if (/scope|permission|oauth1-permissions/i.test(`${problem.detail ?? ''} ${problem.reason ?? ''}`)) {
      return new PlatformError(
        'needs_reconnect',
        `The X connection lacks a permission; reconnect the account${detail}`,
        init,
      );
    }
    return new PlatformError('content_rejected', `X refused ${what}${detail}`, init);
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `X could not find ${what}${detail}`, init);
  if (status === 413) return new PlatformError('media_rejected', `X refused the media size${detail}`, init);
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `X is unavailable (HTTP ${status})${detail}`, init);
  }
  if (status === 400) {
    const code = /media/i.test(what) ? 'media_rejected' : 'content_rejected';
    return new PlatformError(code, `X rejected ${what}${detail}`, init);
  }
  return new PlatformError('internal', `X answered HTTP ${status} to ${what}${detail}`, init);
}

/** Token endpoint answers: `{ error, error_description }` (RFC 6749). */
export function xTokenError(status: number, body: unknown, headers: Headers): PlatformError {
  const { error, error_description: description } = (body ?? {}) as {
    error?: string;
    error_description?: string;
  };
  const said = error ? ` (${error}${description ? `: ${String(description).slice(0, 200)}` : ''})` : '';
  if (status === 429) {
    const wait = rateLimitWaitMs(headers);
    return new PlatformError('rate_limited', 'X sign-in is rate limited; retry later', {
      status,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `X sign-in is unavailable (HTTP ${status})`, { status });
  }
  if (status === 401 || error === 'unauthorized_client' || error === 'invalid_client') {
    return new PlatformError('credentials_invalid', `X refused the app's client id or secret${said}`, {
      status,
    });
  }
  // X answers a used, revoked or expired refresh token with 400 invalid_request ("Value passed for the token was invalid.").
  return new PlatformError(
    'needs_reconnect',
    `X no longer accepts this connection; reconnect the account${said}`,
    {
      status,
    },
  );
}
