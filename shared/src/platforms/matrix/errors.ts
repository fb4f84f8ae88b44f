import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a refusal lands on the right side: the room, the text, a file. */
export type MatrixOperation = 'send' | 'upload' | 'account' | 'room' | 'server';

interface MatrixErrorBody {
  errcode?: unknown;
  error?: unknown;
  retry_after_ms?: unknown;
  soft_logout?: unknown;
}

/**
 * Maps a homeserver's `{ errcode, error }` answer (Client-Server API, "Standard error response")
 * to our codes. The errcode is shown; the server's own words only through remoteText.
 */
export function matrixError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: MatrixOperation,
): PlatformError {
  const parsed = (body && typeof body === 'object' ? body : {}) as MatrixErrorBody;
  const errcode =
    typeof parsed.errcode === 'string' && /^[A-Z0-9_.]{1,64}$/i.test(parsed.errcode)
      ? parsed.errcode
      : undefined;
  const said = [errcode, remoteText(parsed.error, 200)].filter(Boolean).join(': ');
  const detail = said ? ` (${said})` : ` (HTTP ${status})`;
  const init = { status };

  if (status === 429 || errcode === 'M_LIMIT_EXCEEDED') {
    const fromBody = typeof parsed.retry_after_ms === 'number' ? parsed.retry_after_ms : undefined;
    const retryAfterMs = parseRetryAfter(headers.get('retry-after')) ?? fromBody;
    return new PlatformError('rate_limited', `The homeserver rate-limited the request${detail}`, {
      ...init,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs: Math.max(0, retryAfterMs) }),
    });
  }
  if (
    errcode === 'M_UNKNOWN_TOKEN' ||
    errcode === 'M_MISSING_TOKEN' ||
    errcode === 'M_USER_DEACTIVATED' ||
    status === 401
  ) {
    return new PlatformError(
      'needs_reconnect',
      `The homeserver no longer accepts this access token${detail}; reconnect the account with a new token`,
      init,
    );
  }
  if (status === 413 || errcode === 'M_TOO_LARGE') {
    return new PlatformError(
      operation === 'upload' ? 'media_rejected' : 'content_rejected',
      `The homeserver refused it as too large${detail}`,
      init,
    );
  }
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `The homeserver is unavailable (HTTP ${status})`, init);
  }
  if (operation === 'upload') {
    return new PlatformError('media_rejected', `The homeserver refused the file${detail}`, init);
  }
  if (operation === 'server') {
    return new PlatformError(
      'platform_unavailable',
      `The homeserver did not answer as expected${detail}`,
      init,
    );
  }
  if (status === 403 || status === 404 || errcode === 'M_FORBIDDEN' || errcode === 'M_NOT_FOUND') {
    return new PlatformError(
      'target_unreachable',
      `The account cannot post to this room${detail}: invite it, or check the room id`,
      init,
    );
  }
  if (operation === 'account') {
    return new PlatformError(
      'platform_unavailable',
      `The homeserver did not answer as expected${detail}`,
      init,
    );
  }
  return new PlatformError('content_rejected', `The homeserver refused the message${detail}`, init);
}
