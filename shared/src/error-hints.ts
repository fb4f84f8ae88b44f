import { type PlatformErrorCode, platformErrorCodes, platformErrorHints } from './errors.ts';

/**
 * Hints for the codes a target can end with besides the platform error codes (whose hints live
 * beside them in errors.ts): validation, dispatch and interruptions. Browser-safe.
 */
const targetErrorHints: Record<string, string> = {
  not_published: 'Another account of this post failed its checks: fix that one, then publish again.',
  outcome_unknown:
    'Publishing was interrupted and this platform cannot tell whether it arrived: check the account, then mark it posted or post it again.',
  account_not_found: 'This account was disconnected: connect it again or remove it from the post.',
  text_too_long:
    'The message is longer than this platform allows: shorten it or give this account its own version.',
  not_supported: 'This platform cannot do what was asked: remove the option or the account from the post.',
  media_not_found: 'A file of the post is gone: upload it again and attach it.',
  invalid_option: 'An option is not valid for this account: change or remove it in the composer.',
  option_required: 'This account needs an option set: fill it in the composer.',
};

/** The hint for an error code; every platform error code has one, other codes a generic one. */
export function errorHint(code: string): string {
  return (
    (platformErrorHints as Record<string, string>)[code] ??
    targetErrorHints[code] ??
    'Publishing to this account failed: read the message, fix what it names, then retry.'
  );
}

/** Every code with a written hint (the test checks each platform error code is among them). */
export const hintedCodes: readonly string[] = [...platformErrorCodes, ...Object.keys(targetErrorHints)];

/** An error object with its hint, for answers and pages; an existing hint is kept. */
export function withHint<T extends { code: string; hint?: string }>(error: T): T & { hint: string } {
  return { ...error, hint: error.hint ?? errorHint(error.code) };
}

/**
 * Where a platform answered a call other than a publish: `connect` while an account is being
 * connected (nothing is stored yet, so the person fixes what they typed), `account` for a call
 * made with a connected account's stored credentials (loading its option choices).
 */
export type AccountCallContext = 'connect' | 'account';

/*
 * The publish hints speak of retries that happen by themselves and posts never sent twice; outside
 * publishing nothing retries, so these tell the person to try again themselves.
 */
const connectHints: Partial<Record<PlatformErrorCode, string>> = {
  credentials_invalid:
    'The platform refused these credentials: copy them again from the platform (with the permissions it asks for), then connect again.',
  needs_reconnect:
    'The platform refused these credentials: copy them again from the platform (with the permissions it asks for), then connect again.',
  target_unreachable:
    'The platform cannot reach that channel, page or server for this account: check the address and that the account may post there, then connect again.',
  rate_limited: 'The platform asked us to slow down: wait a few minutes, then connect again.',
};
const accountHints: Partial<Record<PlatformErrorCode, string>> = {
  rate_limited: 'The platform asked us to slow down: wait a few minutes, then try again.',
};
const tryAgainHints: Record<AccountCallContext, string> = {
  connect: 'The platform could not be reached or did not answer: wait a moment, then connect again.',
  account: 'The platform could not be reached or did not answer: wait a moment, then try again.',
};
const transientCodes: ReadonlySet<string> = new Set(['platform_unavailable', 'timeout', 'network_error']);

/**
 * The hint for a platform's answer outside publishing (contract F: every platform error carries
 * one). A platform's own precise hint (Slack: invite the app to the channel) wins over the code's.
 */
export function accountCallHint(error: { code: string; hint?: string }, context: AccountCallContext): string {
  const generic = errorHint(error.code);
  if (error.hint && error.hint !== generic) return error.hint;
  const table = context === 'connect' ? connectHints : accountHints;
  return (
    (table as Record<string, string>)[error.code] ??
    (transientCodes.has(error.code) ? tryAgainHints[context] : generic)
  );
}

/**
 * What the person can do about an account whose health check (or a refused publish) found a
 * problem: the API's `healthHint`, MCP's `list_accounts` and the accounts page say the same.
 */
export const accountHealthHints = {
  expiring:
    'The connection expires soon and could not be renewed by itself: reconnect the account before then.',
  needs_reconnect:
    'The platform no longer accepts this connection (access was revoked or expired, or the password changed): reconnect the account; posts to it fail until then.',
  unreachable:
    'This is often a passing outage and the account is checked again by itself; if it lasts, check on the platform that the account can still post to its chat, page or server.',
} as const;
