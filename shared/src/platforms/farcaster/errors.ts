import { PlatformError } from '../../errors.ts';
import { parseRetryAfter } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';

/** Neynar's error body: `{ code, message, property?, status? }`. */
interface NeynarError {
  code?: unknown;
  message?: unknown;
  property?: unknown;
}

const signerTrouble = /signer/i;

/** Classifies a Neynar error answer; `what` names the request ("the cast", "the signer lookup"). */
export function neynarError(status: number, body: unknown, headers: Headers, what: string): PlatformError {
  const error = (body ?? {}) as NeynarError;
  const code = typeof error.code === 'string' ? error.code.slice(0, 60) : '';
  const said = [remoteText(error.message), code && `(${code})`].filter(Boolean).join(' ');
  const detail = said ? `: ${said}` : '';
  const init = { status };
  if (status === 429) {
    const reset = Number(headers.get('x-ratelimit-reset'));
    const wait =
      parseRetryAfter(headers.get('retry-after')) ??
      (Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : undefined);
    return new PlatformError('rate_limited', `Neynar rate limit reached for ${what}${detail}`, {
      ...init,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (
    code === 'SignerNotApproved' ||
    code === 'SignerRevoked' ||
    ((status === 403 || status === 404) && signerTrouble.test(`${code} ${String(error.message ?? '')}`))
  )
    return new PlatformError(
      'needs_reconnect',
      `The account's Neynar signer cannot cast (not approved, revoked or unknown); approve a new signer and reconnect${detail}`,
      init,
    );
  if (status === 401)
    // The operator's key, not the account's: nothing the user can fix by reconnecting.
    return new PlatformError('platform_unavailable', `Neynar refused NEYNAR_API_KEY${detail}`, {
      ...init,
      retryable: false,
    });
  if (status === 402)
    return new PlatformError('rate_limited', `The Neynar plan does not cover ${what}${detail}`, {
      ...init,
      retryable: false,
    });
  if (status === 404)
    return new PlatformError(
      'target_unreachable',
      `Neynar could not find ${what === 'the cast' ? 'the channel' : what}${detail}`,
      init,
    );
  if (status === 403) return new PlatformError('content_rejected', `Neynar refused ${what}${detail}`, init);
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Neynar is unavailable (HTTP ${status})${detail}`, init);
  if (status === 400 || status === 422) {
    const media = typeof error.property === 'string' && /embed/i.test(error.property);
    return new PlatformError(
      media ? 'media_rejected' : 'content_rejected',
      `Neynar rejected ${what}${detail}`,
      init,
    );
  }
  return new PlatformError('internal', `Neynar answered HTTP ${status} to ${what}${detail}`, init);
}
