import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** Helix and id.twitch.tv errors: `{ error?, status, message }`. */
interface TwitchErrorBody {
  error?: unknown;
  status?: unknown;
  message?: unknown;
}

function said(body: unknown): string {
  const message = remoteText((body as TwitchErrorBody | undefined)?.message);
  return message ? `: ${message}` : '';
}

/** `Ratelimit-Reset` is the epoch second the bucket refills; `Retry-After` when a proxy sends it. */
export function twitchRetryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const reset = Number(headers.get('ratelimit-reset'));
  if (headers.get('ratelimit-reset') && Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  return parseRetryAfter(headers.get('retry-after'));
}

/** Classifies a Helix error answer; `what` names the request. */
export function twitchError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const detail = said(body);
  const init = { status };
  if (status === 429) {
    const wait = twitchRetryAfterMs(headers);
    return new PlatformError('rate_limited', `Twitch rate limit reached for ${what}${detail}`, {
      ...init,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status === 401)
    return new PlatformError(
      'needs_reconnect',
      `Twitch refused the access token; reconnect the account${detail}`,
      init,
    );
  if (status === 403) {
    if (/scope|authoriz/i.test(detail))
      return new PlatformError(
        'needs_reconnect',
        `The Twitch connection lacks a permission; reconnect the account${detail}`,
        init,
      );
    return new PlatformError(
      'target_unreachable',
      `Twitch does not let this account chat there${detail}`,
      init,
    );
  }
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Twitch is unavailable (HTTP ${status})${detail}`, init);
  if (status === 400 || status === 422)
    return new PlatformError('content_rejected', `Twitch rejected ${what}${detail}`, init);
  return new PlatformError('internal', `Twitch answered HTTP ${status} to ${what}${detail}`, init);
}

/** id.twitch.tv/oauth2/token answers. */
export function twitchTokenError(status: number, body: unknown, headers: Headers): PlatformError {
  const detail = said(body);
  if (status === 429) {
    const wait = twitchRetryAfterMs(headers);
    return new PlatformError('rate_limited', 'Twitch sign-in is rate limited; retry later', {
      status,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Twitch sign-in is unavailable (HTTP ${status})`, {
      status,
    });
  if (/client/i.test(detail))
    return new PlatformError('credentials_invalid', `Twitch refused the app's client id or secret${detail}`, {
      status,
    });
  // "Invalid refresh token": revoked, or the user changed their password.
  return new PlatformError(
    'needs_reconnect',
    `Twitch no longer accepts this connection; reconnect the account${detail}`,
    {
      status,
    },
  );
}

/** A message Twitch answered `is_sent: false`: a failure carrying Twitch's reason. */
export function droppedMessage(reason: { code?: unknown; message?: unknown } | undefined): PlatformError {
  const code = remoteText(reason?.code, 60) ?? 'unknown';
  const message = remoteText(reason?.message) ?? 'no reason given';
  const text = `Twitch dropped the chat message (${code}): ${message}`;
  // Slow mode and the chat rate limit pass; the other reasons (AutoMod, followers-only,
  // duplicates, banned phrases) need a person.
  return /ratelimit|slow/i.test(code)
    ? new PlatformError('rate_limited', text, { retryAfterMs: 30_000 })
    : new PlatformError('content_rejected', text);
}
