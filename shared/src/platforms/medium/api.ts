import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, so a refusal lands on the right side: the post, an image or the token. */
export type MediumOperation = 'post' | 'image' | 'account';

/**
 * One Medium API call with the integration token as a bearer token. Medium wraps answers in
 * `{ data }` and errors in `{ errors: [{ message, code }] }` (its API documentation).
 */
export async function mediumCall<T>(
  apiUrl: string,
  token: string,
  request: {
    method: 'GET' | 'POST';
    path: string;
    json?: unknown;
    form?: FormData;
    operation: MediumOperation;
    signal?: AbortSignal | undefined;
    timeoutMs?: number;
  },
): Promise<T> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    'accept-charset': 'utf-8',
  };
  let body: BodyInit | undefined;
  if (request.form) body = request.form;
  else if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers['content-type'] = 'application/json';
  }
  const response = await platformFetch(`${apiUrl}${request.path}`, {
    method: request.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
  });
  const parsed = await readJson(response);
  if (!response.ok) throw mediumError(response.status, parsed, response.headers, request.operation);
  const data = (parsed as { data?: unknown } | undefined)?.data;
  if (data === undefined || data === null || typeof data !== 'object') {
    throw new PlatformError('platform_unavailable', 'Medium answered without data', {
      status: response.status,
    });
  }
  return data as T;
}

/** Maps Medium's error answers (401 token, 403 permission, 400 input) to our codes, keeping Medium's words. */
export function mediumError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: MediumOperation,
): PlatformError {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown; code?: unknown }) : undefined;
  const said = remoteText(first?.message);
  const detail = said
    ? `: ${said}${typeof first?.code === 'number' ? ` (${first.code})` : ''}`
    : ` (HTTP ${status})`;
  const init = { status };
  const wait = parseRetryAfter(headers.get('retry-after'));
  const after = wait !== undefined ? { retryAfterMs: wait } : {};
  if (status === 401)
    return new PlatformError('credentials_invalid', `Medium refused the integration token${detail}`, init);
  if (status === 403) {
    return new PlatformError(
      'credentials_invalid',
      operation === 'image'
        ? `Medium does not let this token upload images${detail}`
        : `Medium does not let this token publish as this author${detail}`,
      init,
    );
  }
  if (status === 429)
    return new PlatformError('rate_limited', `Medium rate limit reached${detail}`, { ...init, ...after });
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Medium is unavailable (HTTP ${status})`, {
      ...init,
      ...after,
    });
  if (status === 404)
    return new PlatformError('target_unreachable', `Medium could not find that author${detail}`, init);
  if (operation === 'image')
    return new PlatformError('media_rejected', `Medium did not accept the image${detail}`, init);
  return new PlatformError('content_rejected', `Medium refused the story${detail}`, init);
}
