import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { FarcasterConfig } from './config.ts';
import { neynarError } from './errors.ts';

/** One Neynar call with the operator's `x-api-key`; answers the parsed body, errors classified. */
export async function neynarFetch<T>(
  config: FarcasterConfig,
  path: string,
  request: { method: 'GET' | 'POST'; what: string; json?: unknown; signal?: AbortSignal | undefined },
): Promise<T> {
  if (!config.apiKey)
    throw new PlatformError('platform_unavailable', 'NEYNAR_API_KEY is not set on this server', {
      retryable: false,
    });
  const response = await platformFetch(`${config.apiUrl}${path}`, {
    method: request.method,
    headers: {
      accept: 'application/json',
      'x-api-key': config.apiKey,
      ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const body = await readJson(response);
  if (!response.ok) throw neynarError(response.status, body, response.headers, request.what);
  return (body ?? {}) as T;
}
