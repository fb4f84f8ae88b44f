import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a refusal lands on the right side: the post or an image. */
export type GhostOperation = 'post' | 'image' | 'account' | 'read';

/** Ghost's errors: `{ errors: [{ message, context, type, code, ... }] }`. */
interface GhostErrorItem {
  message?: unknown;
  context?: unknown;
  type?: unknown;
  code?: unknown;
}

/** Refusals of the Admin API key or of the token made from it. */
const keyCodes = new Set([
  'INVALID_JWT',
  'UNKNOWN_ADMIN_API_KEY',
  'MISSING_ADMIN_API_KID',
  'INVALID_API_KEY_TYPE',
  'INVALID_AUTH_HEADER',
]);

export function ghostErrorItem(body: unknown): GhostErrorItem | undefined {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors[0] && typeof errors[0] === 'object'
    ? (errors[0] as GhostErrorItem)
    : undefined;
}

/** Maps a Ghost Admin API error answer to our codes, keeping Ghost's message (cleaned and cut short). */
export function ghostError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: GhostOperation,
  host: string,
): PlatformError {
  const item = ghostErrorItem(body);
  const code = typeof item?.code === 'string' ? item.code : undefined;
  const type = typeof item?.type === 'string' ? item.type : undefined;
  const said = [remoteText(item?.message), remoteText(item?.context)].filter(Boolean).join(' ');
  const detail = said ? `: ${said}` : ` (HTTP ${status})`;
  const init = { status };

  if ((code && keyCodes.has(code)) || status === 401) {
    return new PlatformError(
      'credentials_invalid',
      `Ghost at ${host} refused the Admin API key${detail}${code === 'INVALID_JWT' ? ' (if the key is right, check this server’s clock)' : ''}`,
      init,
    );
  }
  if (status === 429) {
    const wait = parseRetryAfter(headers.get('retry-after'));
    return new PlatformError('rate_limited', `Ghost at ${host} is limiting requests${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (type === 'HostLimitError') {
    return new PlatformError('content_rejected', `The Ghost site’s plan does not allow this${detail}`, init);
  }
  if (status === 403) {
    return new PlatformError(
      'credentials_invalid',
      `Ghost at ${host} does not let this integration do that${detail}`,
      init,
    );
  }
  if (status === 404 || status === 410) {
    return new PlatformError(
      'target_unreachable',
      item
        ? `Ghost at ${host} has no such resource${detail}`
        : `No Ghost Admin API answered at ${host} (HTTP ${status}); check the API URL`,
      init,
    );
  }
  if (status === 413 || status === 415 || (operation === 'image' && status >= 400 && status < 500)) {
    return new PlatformError('media_rejected', `Ghost did not accept the image${detail}`, init);
  }
  if (status >= 500) {
    const wait = parseRetryAfter(headers.get('retry-after'));
    return new PlatformError('platform_unavailable', `Ghost at ${host} is unavailable${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  return new PlatformError('content_rejected', `Ghost refused the post${detail}`, init);
}
