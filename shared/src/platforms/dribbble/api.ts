import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

export type DribbbleOperation = 'shot' | 'read' | 'account';

export interface DribbbleAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * One Dribbble API v2 call with the OAuth token as a bearer token. Answers of `expect` statuses
 * come back (a 202, a 404 while a shot is processed); any other failure is mapped here.
 */
export async function dribbbleCall<T>(
  apiUrl: string,
  token: string,
  request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string>;
    form?: FormData;
    operation: DribbbleOperation;
    signal?: AbortSignal | undefined;
    expect?: readonly number[];
    timeoutMs?: number;
  },
): Promise<DribbbleAnswer<T>> {
  const query = new URLSearchParams(request.query).toString();
  const response = await platformFetch(`${apiUrl}${request.path}${query ? `?${query}` : ''}`, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    ...(request.form ? { body: request.form } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
  });
  const body = await readJson(response);
  if (request.expect?.includes(response.status))
    return { status: response.status, body: body as T, headers: response.headers };
  if (!response.ok) throw dribbbleError(response.status, body, response.headers, request.operation);
  return { status: response.status, body: body as T, headers: response.headers };
}

/** How long Dribbble asks to wait: `X-RateLimit-Reset` (epoch seconds) when spent, else `Retry-After`. */
export function dribbbleWaitMs(headers: Headers, now = Date.now()): number | undefined {
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (
    headers.get('x-ratelimit-reset') &&
    Number.isFinite(reset) &&
    headers.get('x-ratelimit-remaining') === '0'
  ) {
    return Math.max(0, reset * 1000 - now);
  }
  return parseRetryAfter(headers.get('retry-after'));
}

/** Maps Dribbble's errors (`{ message, errors?: [{ attribute, message }] }`) to our codes, keeping its words. */
export function dribbbleError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: DribbbleOperation,
): PlatformError {
  const answer = (body ?? {}) as { message?: unknown; errors?: { attribute?: unknown; message?: unknown }[] };
  const fields = Array.isArray(answer.errors) ? answer.errors : [];
  const said = [
    remoteText(answer.message),
    ...fields.map((f) => [remoteText(f.attribute, 40), remoteText(f.message)].filter(Boolean).join(' ')),
  ]
    .filter(Boolean)
    .join('; ');
  const detail = said ? `: ${said}` : ` (HTTP ${status})`;
  const init = { status };
  if (status === 401) {
    return new PlatformError(
      operation === 'account' ? 'credentials_invalid' : 'needs_reconnect',
      `Dribbble no longer accepts this connection; reconnect the account${detail}`,
      init,
    );
  }
  if (status === 429) {
    const wait = dribbbleWaitMs(headers);
    return new PlatformError('rate_limited', `Dribbble rate limit reached${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (status === 403) {
    return new PlatformError(
      'target_unreachable',
      `Dribbble does not let this account upload shots${detail}`,
      {
        ...init,
        retryable: false,
      },
    );
  }
  if (status >= 500) {
    const wait = parseRetryAfter(headers.get('retry-after'));
    return new PlatformError('platform_unavailable', `Dribbble is unavailable${detail}`, {
      ...init,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `Dribbble could not find that${detail}`, init);
  if (fields.some((f) => f.attribute === 'image') || status === 413 || status === 415) {
    return new PlatformError('media_rejected', `Dribbble did not accept the image${detail}`, init);
  }
  return new PlatformError('content_rejected', `Dribbble refused the shot${detail}`, init);
}
