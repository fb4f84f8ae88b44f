import { PlatformError } from '../errors.ts';

export interface RequestOptions extends RequestInit {
  /** Per-request timeout; the caller's signal still applies. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export const defaultRequestTimeoutMs = 30_000;

/**
 * `fetch` with a timeout, turning transport failures into retryable PlatformErrors so every
 * publisher classifies them the same way.
 */
export async function platformFetch(url: string | URL, options: RequestOptions = {}): Promise<Response> {
  const { timeoutMs = defaultRequestTimeoutMs, signal, ...init } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await fetch(url, { ...init, signal: combined });
  } catch (error) {
    if (signal?.aborted)
      throw new PlatformError('timeout', 'Publishing was cancelled or ran out of time', {
        cause: error,
        retryable: false,
      });
    if (timeout.aborted)
      throw new PlatformError('timeout', `No answer from ${hostOf(url)} within ${timeoutMs} ms`, {
        cause: error,
      });
    throw new PlatformError('network_error', `Could not reach ${hostOf(url)}`, { cause: error });
  }
}

function hostOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the platform';
  }
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Reads a JSON body without throwing; platforms sometimes answer HTML on errors. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { nonJsonBody: text.slice(0, 500) };
  }
}
