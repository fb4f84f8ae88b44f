/**
 * Stable error codes. Clients branch on `code`, never on message text, so a code, once
 * shipped, keeps its meaning.
 */
export const platformErrorCodes = [
  'credentials_invalid',
  'needs_reconnect',
  'target_unreachable',
  'content_rejected',
  'media_rejected',
  'media_unavailable',
  'rate_limited',
  'platform_unavailable',
  'timeout',
  'network_error',
  'internal',
] as const;
export type PlatformErrorCode = (typeof platformErrorCodes)[number];

export interface PlatformErrorInit {
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

  constructor(code: PlatformErrorCode, message: string, init: PlatformErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PlatformError';
    this.code = code;
    this.retryable = init.retryable ?? defaultRetryable(code);
    this.retryAfterMs = init.retryAfterMs;
    this.status = init.status;
  }

  toJSON(): { code: PlatformErrorCode; message: string; retryable: boolean } {
    return { code: this.code, message: this.message, retryable: this.retryable };
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
