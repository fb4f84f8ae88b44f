import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** The Forem API version these calls are written for, chosen by the Accept header. */
export const foremAccept = 'application/vnd.forem.api-v1+json';

export type DevtoOperation = 'article' | 'account' | 'read';

/** One Forem API call with the `api-key` header; errors (`{ error, status }`) mapped to our codes. */
export async function devtoCall<T>(
  apiUrl: string,
  apiKey: string,
  request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string>;
    json?: unknown;
    operation: DevtoOperation;
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  const query = new URLSearchParams(request.query).toString();
  const response = await platformFetch(`${apiUrl}${request.path}${query ? `?${query}` : ''}`, {
    method: request.method,
    headers: {
      'api-key': apiKey,
      accept: foremAccept,
      ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(request.json !== undefined ? { body: JSON.stringify(request.json) } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const body = await readJson(response);
  if (!response.ok) throw devtoError(response.status, body, response.headers, request.operation);
  if (body === undefined || body === null || typeof body !== 'object' || 'nonJsonBody' in body) {
    throw new PlatformError('platform_unavailable', 'Dev.to answered without JSON', {
      status: response.status,
    });
  }
  return body as T;
}

/** Maps a Forem error answer to our codes, keeping Forem's `error` text (cleaned and cut short). */
export function devtoError(
  status: number,
  body: unknown,
  headers: Headers,
  operation: DevtoOperation,
): PlatformError {
  const said = remoteText((body as { error?: unknown } | undefined)?.error);
  const detail = said ? `: ${said}` : ` (HTTP ${status})`;
  const init = { status };
  const wait = parseRetryAfter(headers.get('retry-after'));
  const after = wait !== undefined ? { retryAfterMs: wait } : {};
  if (status === 401 || status === 403) {
    return new PlatformError(
      'credentials_invalid',
      operation === 'account' || status === 401
        ? `Dev.to refused the API key${detail}`
        : `Dev.to does not let this account do that${detail}`,
      init,
    );
  }
  if (status === 429) {
    // Forem throttles writes to one a second per key and answers with Retry-After (seconds).
    return new PlatformError('rate_limited', `Dev.to rate limit reached${detail}`, { ...init, ...after });
  }
  if (status === 404)
    return new PlatformError('target_unreachable', `Dev.to could not find that${detail}`, init);
  if (status >= 500) {
    return new PlatformError('platform_unavailable', `Dev.to is unavailable (HTTP ${status})`, {
      ...init,
      ...after,
    });
  }
  return new PlatformError('content_rejected', `Dev.to refused the article${detail}`, init);
}
