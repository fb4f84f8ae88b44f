import { PlatformError } from '../errors.ts';
import { type Deadline, withDeadline } from './deadline.ts';

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
  const deadline = withDeadline(signal, timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: deadline.signal });
  } catch (error) {
    deadline.dispose();
    if (signal?.aborted)
      throw new PlatformError('timeout', 'Publishing was cancelled or ran out of time', {
        cause: error,
        retryable: false,
      });
    if (deadline.timedOut)
      throw new PlatformError('timeout', `No answer from ${hostOf(url)} within ${timeoutMs} ms`, {
        cause: error,
      });
    throw new PlatformError('network_error', `Could not reach ${hostOf(url)}`, { cause: error });
  }
  return releasedWithBody(response, deadline);
}

/**
 * The deadline still bounds reading the body, and is let go of as soon as the body has been read
 * (or cancelled), not when its timer would have fired.
 */
function releasedWithBody(response: Response, deadline: Deadline): Response {
  if (!response.body) {
    deadline.dispose();
    return response;
  }
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      flush: () => deadline.dispose(),
      cancel: () => deadline.dispose(),
    } as Transformer<Uint8Array, Uint8Array>),
  );
  const released = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(released, 'url', { value: response.url });
  return released;
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
