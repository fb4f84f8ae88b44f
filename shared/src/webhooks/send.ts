import { ReplyTooLargeError, readTextCapped } from '../http/capped-body.ts';
import { withDeadline } from '../http/deadline.ts';
import type { FetchLike } from '../http/fetch-like.ts';
import { signWebhook } from './signing.ts';

/** A delivery succeeds on a 2xx within this time (docs/webhooks.md). */
export const webhookTimeoutMs = 15_000;
/** How much of a receiver's reply is read and kept for the delivery log. */
export const webhookResponseKeepBytes = 2_048;

export interface WebhookAttempt {
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, in our words (never a secret). */
  error: string | null;
  /** The start of the reply body, for the log. */
  responseBody: string | null;
}

export interface WebhookMessage {
  /** `webhook-id`: the same for every attempt of one message, so receivers can deduplicate. */
  id: string;
  timestamp: Date;
  /** The JSON body exactly as signed. */
  body: string;
}

/**
 * Sends one signed delivery and reports what happened; never throws. The reply is read up to
 * a small cap (a receiver cannot make us hold more), and the whole attempt, reading included,
 * ends at `timeoutMs`.
 */
export async function sendWebhook(
  fetch: FetchLike,
  url: string,
  message: WebhookMessage,
  secrets: readonly string[],
  options: { timeoutMs?: number; signal?: AbortSignal; userAgent?: string } = {},
): Promise<WebhookAttempt> {
  const started = performance.now();
  const deadline = withDeadline(options.signal, options.timeoutMs ?? webhookTimeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  let status: number | null = null;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': options.userAgent ?? 'Postwave-Webhooks/1.0',
        ...signWebhook(message, secrets),
      },
      body: message.body,
      redirect: 'manual',
      signal: deadline.signal,
    });
    status = response.status;
    let responseBody: string | null = null;
    try {
      responseBody = await readTextCapped(response, webhookResponseKeepBytes);
    } catch (error) {
      if (!(error instanceof ReplyTooLargeError)) throw error;
      responseBody = null;
    }
    const ok = status >= 200 && status < 300;
    return {
      ok,
      status,
      durationMs: elapsed(),
      error: ok
        ? null
        : status >= 300 && status < 400
          ? `redirect (${status}) not followed`
          : `HTTP ${status}`,
      responseBody,
    };
  } catch (error) {
    const message = deadline.timedOut
      ? `no answer within ${Math.round((options.timeoutMs ?? webhookTimeoutMs) / 1000)} s`
      : options.signal?.aborted
        ? 'cancelled'
        : describe(error);
    return { ok: false, status, durationMs: elapsed(), error: message, responseBody: null };
  } finally {
    deadline.dispose();
  }
}

/** A short, safe reason: the safe fetch's own messages, or the error's kind. */
function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'UnsafeUrlError') return error.message;
    return error.message.slice(0, 200) || error.name;
  }
  return 'delivery failed';
}
