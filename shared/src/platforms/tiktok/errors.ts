import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';

/**
 * TikTok's error envelope on every v2 answer: `{ data, error: { code, message, log_id } }`, where
 * `code` is "ok" on success. The token endpoint answers `{ error, error_description, log_id }`.
 */
export interface TikTokEnvelope<T> {
  data?: T;
  error?: { code?: string; message?: string; log_id?: string };
}

/** A publish's `fail_reason` from status/fetch, as the error it becomes. */
export function tiktokFailReason(reason: string | undefined): PlatformError {
  const said = reason || 'no reason given';
  switch (reason) {
    case 'file_format_check_failed':
    case 'duration_check_failed':
    case 'frame_rate_check_failed':
    case 'picture_size_check_failed':
      return new PlatformError('media_rejected', `TikTok refused the media (${said})`, { retryable: false });
    case 'video_pull_failed':
    case 'photo_pull_failed':
      return new PlatformError(
        'media_rejected',
        `TikTok could not download the media from its URL (${said}); the URL must be public and its domain verified in the TikTok developer portal`,
        { retryable: false },
      );
    case 'auth_removed':
      return new PlatformError(
        'needs_reconnect',
        'The creator removed Postwave’s access on TikTok; reconnect the account',
      );
    case 'spam_risk_too_many_posts':
      return new PlatformError('rate_limited', 'This TikTok creator reached the daily post limit', {
        retryable: false,
      });
    case 'spam_risk_user_banned_from_posting':
    case 'spam_risk_text':
    case 'spam_risk':
      return new PlatformError('content_rejected', `TikTok refused the post (${said})`, { retryable: false });
    case 'publish_cancelled':
      return new PlatformError('content_rejected', 'The post was cancelled on TikTok', { retryable: false });
    default:
      return new PlatformError('platform_unavailable', `TikTok could not publish the post (${said})`);
  }
}

/** Classifies an error answer of the Content Posting API; `what` names the request. */
export function tiktokError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const error = (body as TikTokEnvelope<unknown> | undefined)?.error ?? {};
  const code = error.code ?? '';
  const detail = error.message ? `: ${error.message.slice(0, 300)}` : '';
  const init = { status };
  switch (code) {
    case 'access_token_invalid':
      return new PlatformError(
        'needs_reconnect',
        `TikTok no longer accepts this access token (expired or revoked); reconnect the account${detail}`,
        init,
      );
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return new PlatformError(
        'needs_reconnect',
        `The TikTok connection lacks a permission (video.publish, video.upload); reconnect the account${detail}`,
        init,
      );
    case 'rate_limit_exceeded': {
      const wait = parseRetryAfter(headers.get('retry-after'));
      return new PlatformError('rate_limited', `TikTok rate limit reached during ${what}${detail}`, {
        ...init,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      });
    }
    case 'spam_risk_too_many_posts':
      return new PlatformError(
        'rate_limited',
        `This TikTok creator reached the daily limit of posts through the API${detail}`,
        { ...init, retryable: false },
      );
    case 'reached_active_user_cap':
      return new PlatformError(
        'rate_limited',
        `This TikTok app reached its daily cap of posting creators${detail}`,
        { ...init, retryable: false },
      );
    case 'spam_risk_user_banned_from_posting':
      return new PlatformError(
        'content_rejected',
        `TikTok does not let this creator post now${detail}`,
        init,
      );
    case 'unaudited_client_can_only_post_to_private_accounts':
      return new PlatformError(
        'content_rejected',
        `TikTok has not audited this app, so it may only post with the privacy level SELF_ONLY ("Only me")${detail}`,
        init,
      );
    case 'privacy_level_option_mismatch':
      return new PlatformError(
        'content_rejected',
        `The privacy level is not one this TikTok creator allows${detail}`,
        init,
      );
    case 'url_ownership_unverified':
      return new PlatformError(
        'media_rejected',
        `TikTok pulls media only from domains verified for the app; verify the media URL's domain in the TikTok developer portal${detail}`,
        init,
      );
    case 'file_format_check_failed':
    case 'invalid_file_upload':
      return new PlatformError('media_rejected', `TikTok refused the media of ${what}${detail}`, init);
    case 'internal_error':
      return new PlatformError(
        'platform_unavailable',
        `TikTok failed ${what} (internal error)${detail}`,
        init,
      );
  }
  if (status === 429)
    return new PlatformError('rate_limited', `TikTok rate limit reached during ${what}${detail}`, init);
  if (status === 401)
    return new PlatformError(
      'needs_reconnect',
      `TikTok refused the access token; reconnect the account${detail}`,
      init,
    );
  if (status >= 500)
    return new PlatformError('platform_unavailable', `TikTok is unavailable (HTTP ${status})${detail}`, init);
  if (status === 403) return new PlatformError('content_rejected', `TikTok refused ${what}${detail}`, init);
  if (status === 404)
    return new PlatformError('target_unreachable', `TikTok could not find ${what}${detail}`, init);
  if (status >= 400) return new PlatformError('content_rejected', `TikTok rejected ${what}${detail}`, init);
  return new PlatformError(
    'internal',
    `TikTok answered ${what} with error ${code || 'unknown'}${detail}`,
    init,
  );
}

/** An error answer of `/v2/oauth/token/` (`{ error, error_description }`). */
export function tiktokTokenError(status: number, body: unknown, what: string): PlatformError {
  const answer = (body ?? {}) as { error?: unknown; error_description?: unknown };
  const code = typeof answer.error === 'string' ? answer.error : '';
  const said =
    typeof answer.error_description === 'string' ? `: ${answer.error_description.slice(0, 300)}` : '';
  if (status >= 500 || status === 429)
    return new PlatformError(
      status === 429 ? 'rate_limited' : 'platform_unavailable',
      `TikTok could not answer ${what} (HTTP ${status})${said}`,
      { status },
    );
  if (code === 'invalid_grant')
    return new PlatformError(
      'needs_reconnect',
      `TikTok refused ${what} (expired or revoked); reconnect the account${said}`,
      { status },
    );
  if (code === 'invalid_client' || code === 'unauthorized_client')
    return new PlatformError(
      'credentials_invalid',
      `TikTok refused the app's client key or secret during ${what}${said}`,
      { status },
    );
  return new PlatformError(
    'credentials_invalid',
    `TikTok refused ${what} (${code || `HTTP ${status}`})${said}`,
    { status },
  );
}
