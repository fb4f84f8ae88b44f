/*
 * How a connect flow that ended before an account was saved is told: `/accounts?error=<code>`
 * with `message` (what happened) and `hint` (what the person can do; contract F: every platform
 * error carries one). The accounts page shows the hint of the code from here, never the link's
 * parameters: anyone can craft a link to that page.
 */

export const connectErrorCodes = [
  'access_denied',
  'invalid_state',
  'credentials_invalid',
  'no_accounts',
  'account_mismatch',
  'provider_error',
  'invalid_request',
] as const;
export type ConnectErrorCode = (typeof connectErrorCodes)[number];

/** One sentence per outcome, in plain words, on what the person can do next. */
export const connectErrorHints: Record<ConnectErrorCode, string> = {
  access_denied: 'Sign-in with the platform was cancelled, so no account was connected.',
  invalid_state:
    'That connection link expired, was already used, or was started by someone else. Start connecting again.',
  credentials_invalid:
    'The platform refused the sign-in. Try again; if it keeps failing, the server’s app settings for this platform may be wrong.',
  no_accounts:
    'That login has no account Postwave can publish to (for example no page you manage, or no professional account).',
  account_mismatch:
    'You signed in as a different account than the one you are reconnecting. Sign in as that account and reconnect again.',
  provider_error: 'The platform could not be reached or answered with an error. Try again in a moment.',
  invalid_request:
    'The platform sent the browser back without what the connection needs. Start connecting again.',
};

/** What the accounts page says for an outcome code from its link; unknown codes get a general sentence. */
export function connectErrorHint(code: string): string {
  return (
    (connectErrorHints as Record<string, string>)[code] ?? 'The account could not be connected. Try again.'
  );
}

/** A flow that ended before an account was saved; shown to the user on the accounts page. */
export class ConnectError extends Error {
  override name = 'ConnectError';
  readonly code: ConnectErrorCode;
  constructor(code: ConnectErrorCode, message: string) {
    super(message);
    this.code = code;
  }
  get hint(): string {
    return connectErrorHints[this.code];
  }

  /** The accounts page's link for this outcome. */
  redirect(appUrl: string): URL {
    const back = new URL('/accounts', appUrl);
    back.searchParams.set('error', this.code);
    back.searchParams.set('message', this.message);
    back.searchParams.set('hint', this.hint);
    return back;
  }
}
