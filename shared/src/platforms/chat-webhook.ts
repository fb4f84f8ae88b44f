import { createHash } from 'node:crypto';
import { PlatformError } from '../errors.ts';
import { defaultRequestTimeoutMs, platformFetch } from '../http/fetch.ts';
import type { FetchLike } from '../http/fetch-like.ts';

/*
 * What the webhook platforms (Microsoft Teams, Google Chat) share: the webhook URL is the
 * credential, chosen by the user, so it is parsed strictly, posted to through the caller's fetch
 * (the SSRF-safe one on the Scheduler), never written into an error, and keyed by a digest.
 */

/** A short digest naming a webhook in rate limits and logs, never the URL or its secret. */
export function webhookKey(url: URL, secretParams: readonly string[] = []): string {
  const stable = new URL(url);
  for (const name of secretParams) stable.searchParams.delete(name);
  return createHash('sha256').update(stable.toString()).digest('base64url').slice(0, 22);
}

/**
 * POSTs JSON to a webhook. Redirects are not followed (a webhook that moved answers 3xx, which
 * callers treat as a refusal), the reply is size-capped by platformFetch, and transport errors
 * name only the host.
 */
export async function postToWebhook(
  url: URL,
  payload: unknown,
  context: { signal?: AbortSignal | undefined; fetch?: FetchLike | undefined },
): Promise<Response> {
  return platformFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(payload),
    redirect: 'manual',
    timeoutMs: defaultRequestTimeoutMs,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.fetch ? { fetch: context.fetch } : {}),
  });
}

/** A webhook answering 3xx has moved: its URL must be replaced. */
export function redirectedError(platform: string, status: number): PlatformError {
  return new PlatformError(
    'target_unreachable',
    `The ${platform} webhook redirected elsewhere (HTTP ${status}); paste its current URL`,
    { status },
  );
}
