import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** What the request was doing, for messages: the post or a read (account, lookup). */
export type HashnodeOperation = 'post' | 'account' | 'read';

interface GraphQLError {
  message?: unknown;
  extensions?: { code?: unknown };
}

/**
 * One GraphQL request to Hashnode with the Personal Access Token as the bare `Authorization`
 * header (Hashnode's API docs). GraphQL answers errors with HTTP 200 and `errors`, so both the
 * status and `errors[].extensions.code` are mapped here, in one place.
 */
export async function hashnodeQuery<T>(
  apiUrl: string,
  token: string,
  request: {
    query: string;
    variables?: Record<string, unknown>;
    operation: HashnodeOperation;
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  const response = await platformFetch(apiUrl, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: request.query, variables: request.variables ?? {} }),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const body = (await readJson(response)) as { data?: unknown; errors?: unknown } | undefined;
  const errors = Array.isArray(body?.errors) ? (body.errors as GraphQLError[]) : [];
  if (!response.ok || errors.length > 0) {
    throw hashnodeError(response.status, errors, response.headers, request.operation);
  }
  if (!body || body.data === null || typeof body.data !== 'object') {
    throw new PlatformError('platform_unavailable', 'Hashnode answered without data', {
      status: response.status,
    });
  }
  return body.data as T;
}

/** Maps Hashnode's HTTP status and GraphQL error codes to ours, keeping Hashnode's message. */
export function hashnodeError(
  status: number,
  errors: readonly GraphQLError[],
  headers: Headers,
  operation: HashnodeOperation,
): PlatformError {
  const first = errors[0];
  const code = typeof first?.extensions?.code === 'string' ? first.extensions.code : undefined;
  const said = remoteText(first?.message);
  const detail = said ? `: ${said}` : ` (HTTP ${status})`;
  const init = { status };
  const wait = parseRetryAfter(headers.get('retry-after'));
  const after = wait !== undefined ? { retryAfterMs: wait } : {};
  if (status === 401 || code === 'UNAUTHENTICATED') {
    return new PlatformError(
      'credentials_invalid',
      `Hashnode refused the Personal Access Token${detail}`,
      init,
    );
  }
  if (status === 429 || code === 'TOO_MANY_REQUESTS') {
    return new PlatformError('rate_limited', `Hashnode rate limit reached${detail}`, { ...init, ...after });
  }
  if (code === 'FORBIDDEN' || status === 403) {
    // Writing through the API needs the publication's Pro plan, or a member who may publish
    // there: no retry and no reconnect helps (the token itself is fine).
    return new PlatformError(
      'target_unreachable',
      `Hashnode does not let this token ${operation === 'post' ? 'write to' : 'read'} the publication (writing through the API needs its Pro plan)${detail}`,
      { ...init, retryable: false },
    );
  }
  if (code === 'NOT_FOUND' || status === 404) {
    return new PlatformError('target_unreachable', `Hashnode could not find the publication${detail}`, init);
  }
  if (status >= 500 || code === 'INTERNAL_SERVER_ERROR') {
    return new PlatformError('platform_unavailable', `Hashnode is unavailable${detail}`, {
      ...init,
      ...after,
    });
  }
  if (operation !== 'post') {
    return new PlatformError('target_unreachable', `Hashnode refused the request${detail}`, {
      ...init,
      retryable: false,
    });
  }
  return new PlatformError('content_rejected', `Hashnode refused the post${detail}`, {
    ...init,
    retryable: false,
  });
}
