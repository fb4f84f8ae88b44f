/**
 * Stable error codes. Clients branch on `code`, never on message text, so a code, once
 * shipped, keeps its meaning.
 */
export const platformErrorCodes = [
  'credentials_invalid',
  'needs_reconnect',
  'target_unreachable',
  'content_rejected',
  'duplicate_content',
  'media_rejected',
  'media_unavailable',
  'rate_limited',
  'platform_unavailable',
  'timeout',
  'network_error',
  'internal',
] as const;
export type PlatformErrorCode = (typeof platformErrorCodes)[number];

/**
 * One sentence in plain words on what a person can do about a failure (contract section F: every
 * platform error carries a `hint`). Keyed by the stable code, so the API, MCP, the post page and
 * e-mails say the same thing; the platform's own words stay in `message`. Browser-safe.
 */
export const platformErrorHints: Record<PlatformErrorCode, string> = {
  credentials_invalid:
    'The platform no longer accepts this account’s credentials: update them or reconnect the account, then retry.',
  needs_reconnect: 'The account’s sign-in expired or was revoked: reconnect the account, then retry.',
  target_unreachable:
    'The account can no longer post there (the app was removed, the channel or page is gone, or the address is not allowed): check it on the platform, then retry.',
  content_rejected:
    'The platform refused the text or options: edit the post (length, links, mentions, options) and try again.',
  duplicate_content:
    'The platform refused this as a duplicate of a recent post: change the text before posting it again (a recycled post leaves this account out from then on).',
  media_rejected:
    'The platform refused a file: pick another file or change its format, size or duration, then retry.',
  media_unavailable: 'A file could not be read from storage: upload it again, then retry.',
  rate_limited: 'The platform asked us to slow down: wait a few minutes, then try again if it still fails.',
  platform_unavailable:
    'The platform had a problem on its side: wait a little, then try again if it still fails.',
  timeout: 'The platform did not answer in time: retry; a post that did arrive is not posted twice.',
  network_error: 'The platform could not be reached: check the network or wait, then retry.',
  internal: 'Something went wrong on our side: retry, and tell the operator if it happens again.',
};

export interface PlatformErrorInit {
  /** What the person can do, when the platform's case needs more than the code's hint. */
  hint?: string;
  retryable?: boolean;
  /** Milliseconds the platform asked us to wait before trying again (429 retry_after). */
  retryAfterMs?: number;
  /** HTTP status the platform answered with, when there was one. */
  status?: number;
  /** Replacement credentials obtained while publishing (e.g. a refreshed OAuth token). */
  cause?: unknown;
}

/** A failure talking to a social platform, already classified as permanent or retryable. */
export class PlatformError extends Error {
  readonly code: PlatformErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  readonly hint: string;

  constructor(code: PlatformErrorCode, message: string, init: PlatformErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PlatformError';
    this.code = code;
    this.retryable = init.retryable ?? defaultRetryable(code);
    this.retryAfterMs = init.retryAfterMs;
    this.status = init.status;
    this.hint = init.hint ?? platformErrorHints[code];
  }

  toJSON(): {
    code: PlatformErrorCode;
    message: string;
    retryable: boolean;
    hint: string;
    platformStatus?: number;
  } {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      hint: this.hint,
      ...(this.status === undefined ? {} : { platformStatus: this.status }),
    };
  }
}

function defaultRetryable(code: PlatformErrorCode): boolean {
  return (
    code === 'rate_limited' ||
    code === 'platform_unavailable' ||
    code === 'timeout' ||
    code === 'network_error'
  );
}

export function isPlatformError(value: unknown): value is PlatformError {
  return value instanceof PlatformError;
}

/** Any thrown value as a PlatformError; unknown failures are permanent `internal` errors. */
export function toPlatformError(value: unknown): PlatformError {
  if (value instanceof PlatformError) return value;
  return new PlatformError('internal', 'Unexpected error while publishing', { cause: value });
}

/**
 * A failure after which the platform may have acted all the same (a timeout, a cut connection, a
 * 5xx): the publish is looked up before it is sent again (docs/dispatch.md#exactly-once-across-crashes).
 */
export function isUnclearOutcome(error: unknown): boolean {
  if (!(error instanceof PlatformError)) return false;
  return error.code === 'timeout' || error.code === 'network_error' || error.code === 'platform_unavailable';
}
