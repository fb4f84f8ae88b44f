import { platformErrorCodes, platformErrorHints } from './errors.ts';

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
