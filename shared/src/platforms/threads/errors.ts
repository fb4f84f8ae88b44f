import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/** Graph API error body: `{ error: { message, type, code, error_subcode?, is_transient?, error_user_msg?, fbtrace_id } }`. */
interface GraphError {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    is_transient?: boolean;
    error_user_title?: string;
    error_user_msg?: string;
  };
}

const rateLimitCodes = new Set([4, 17, 32, 613]);
/** Publishing quota reached (the 250 posts in 24 hours). */
const quotaSubcodes = new Set([2207042]);

/** Minutes until access is back, from `x-business-use-case-usage` or `x-app-usage`. */
export function usageWaitMs(headers: Headers): number | undefined {
  const fromRetryAfter = parseRetryAfter(headers.get('retry-after'));
  if (fromRetryAfter !== undefined) return fromRetryAfter;
  const raw = headers.get('x-business-use-case-usage');
  if (!raw) return undefined;
  try {
    const usage = JSON.parse(raw) as Record<string, { estimated_time_to_regain_access?: number }[]>;
    const minutes = Object.values(usage)
      .flat()
      .map((entry) => Number(entry.estimated_time_to_regain_access))
      .filter((value) => Number.isFinite(value) && value > 0);
    return minutes.length ? Math.max(...minutes) * 60_000 : undefined;
  } catch {
    return undefined;
  }
}

/** Classifies a Threads Graph API error answer; `what` names the request ("the post", "the media container"). */
export function threadsError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const error = (body as GraphError | undefined)?.error ?? {};
  const { code, error_subcode: subcode } = error;
  const said = [error.error_user_msg, error.message].find((m) => typeof m === 'string' && m !== '');
  const detail = said ? `: ${said.slice(0, 300)}` : '';
  const init = { status };

  if (code === 190 || code === 102) {
    return new PlatformError(
      'needs_reconnect',
      `Threads no longer accepts this access token (expired or revoked); reconnect the account${detail}`,
      init,
    );
  }
  if (code === 10 || (code !== undefined && code >= 200 && code < 300)) {
    return new PlatformError(
      'needs_reconnect',
      `The Threads connection lacks a permission (threads_basic, threads_content_publish); reconnect the account${detail}`,
      init,
    );
  }
  if ((subcode !== undefined && quotaSubcodes.has(subcode)) || code === 9) {
    return new PlatformError(
      'rate_limited',
      `This Threads profile reached its publishing limit (250 posts in 24 hours)${detail}`,
      { ...init, retryable: false },
    );
  }
  if (status === 429 || (code !== undefined && rateLimitCodes.has(code))) {
    const wait = usageWaitMs(headers);
    return new PlatformError('rate_limited', `Threads rate limit reached during ${what}${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (code === 368) {
    return new PlatformError(
      'content_rejected',
      `Threads blocked ${what} for a policy reason${detail}`,
      init,
    );
  }
  if (code === 100 && subcode === 33) {
    return new PlatformError(
      'target_unreachable',
      `Threads does not know this profile (check platformAccountId)${detail}`,
      init,
    );
  }
  if (status >= 500 || error.is_transient === true || code === 1 || code === 2) {
    return new PlatformError(
      'platform_unavailable',
      `Threads is unavailable (HTTP ${status})${detail}`,
      init,
    );
  }
  if (status === 401)
    return new PlatformError('credentials_invalid', `Threads refused the access token${detail}`, init);
  if (/\b(reply_to_id|quote_post_id)\b/.test(said ?? '')) {
    // The post replied to or quoted is gone (or was never ours to see): not a media problem.
    return new PlatformError(
      'content_rejected',
      `Threads refused the post ${what} answers or quotes${detail}`,
      init,
    );
  }
  if (
    (subcode !== undefined && subcode >= 2207000 && subcode < 2208000) ||
    /\b(media|image|video|url)\b/i.test(said ?? '')
  ) {
    return new PlatformError('media_rejected', `Threads could not use the media of ${what}${detail}`, init);
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `Threads could not find ${what}${detail}`, init);
  if (status === 400 || status === 403) {
    return new PlatformError('content_rejected', `Threads rejected ${what}${detail}`, init);
  }
  return new PlatformError('internal', `Threads answered HTTP ${status} to ${what}${detail}`, init);
}
