import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/** What the call was doing, so an error lands on the right side: the text, a file, the connection. */
export type SlackOperation = 'message' | 'file' | 'lookup' | 'token';

/** Slack's refusals of the token or the installation: only a new install mends them. */
const reconnectErrors = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'missing_scope',
  'not_allowed_token_type',
  'no_permission',
  'invalid_refresh_token',
  'invalid_grant',
  'app_uninstalled',
]);

/** The channel cannot take the post from this app: invite the app, pick another channel. */
const targetErrors = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'channel_is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'team_access_not_granted',
  'ekm_access_denied',
  'access_denied',
  'messages_tab_disabled',
]);

const mediaErrors = new Set([
  'file_uploads_disabled',
  'file_upload_size_restricted',
  'file_type_not_allowed',
  'file_uploads_except_images_disabled',
  'alt_txt_too_large',
  'invalid_file_type',
  'snippet_too_large',
  'file_not_found',
]);

/** Slack's own transient failures. */
const transientErrors = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/** Slack's cases where the person can do something precise (the error's `hint`). */
const hints: Record<string, string> = {
  not_in_channel: 'Invite the app to the channel (/invite @app-name), then retry.',
  channel_not_found:
    'The channel was deleted or the app cannot see it: pick another channel or invite the app.',
  is_archived: 'The channel is archived: unarchive it or pick another channel.',
  missing_scope: 'The app lacks a permission it needs: install it again from the accounts page.',
  msg_too_long: 'Shorten the message, then retry.',
};

/**
 * Slack answers HTTP 200 with `{ ok: false, error }` for most refusals, and 429 with Retry-After
 * when rate limited. `error` is one of Slack's documented codes, safe to show.
 */
export function slackError(
  error: string,
  operation: SlackOperation,
  init: { status?: number; retryAfterMs?: number | undefined } = {},
): PlatformError {
  const code = /^[a-z0-9_]{1,80}$/.test(error) ? error : 'unknown_error';
  const hint = hints[code] ? `: ${hints[code]!.replace(/\.$/, '')}` : '';
  const base = {
    ...(init.status === undefined ? {} : { status: init.status }),
    ...(hints[code] ? { hint: hints[code] } : {}),
  };
  if (code === 'ratelimited' || code === 'rate_limited' || code === 'message_limit_exceeded') {
    return new PlatformError('rate_limited', `Slack rate limit reached (${code}); retry later`, {
      ...base,
      ...(init.retryAfterMs === undefined ? {} : { retryAfterMs: init.retryAfterMs }),
    });
  }
  if (reconnectErrors.has(code)) {
    return new PlatformError(
      'needs_reconnect',
      `Slack no longer accepts this connection (${code}); reconnect the account (install the app again)${hint}`,
      base,
    );
  }
  if (targetErrors.has(code)) {
    return new PlatformError(
      'target_unreachable',
      `Slack refused to post to this channel (${code})${hint}`,
      base,
    );
  }
  if (mediaErrors.has(code) || (operation === 'file' && code === 'invalid_arguments')) {
    return new PlatformError('media_rejected', `Slack refused the file (${code})`, base);
  }
  if (transientErrors.has(code)) {
    return new PlatformError('platform_unavailable', `Slack is unavailable (${code})`, base);
  }
  if (operation === 'token') {
    return new PlatformError('credentials_invalid', `Slack refused the sign-in (${code})`, base);
  }
  return new PlatformError('content_rejected', `Slack rejected the message (${code})${hint}`, base);
}

/** A non-200 answer without Slack's JSON body (429, a proxy's 5xx). */
export function slackHttpError(status: number, headers: Headers, error: string | undefined): PlatformError {
  if (status === 429) {
    return slackError(error ?? 'ratelimited', 'message', {
      status,
      retryAfterMs: parseRetryAfter(headers.get('retry-after')) ?? 1000,
    });
  }
  if (error) return slackError(error, 'message', { status });
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Slack is unavailable (HTTP ${status})`, { status });
  return new PlatformError('internal', `Slack answered HTTP ${status}`, { status });
}
