import { PlatformError } from '../errors.ts';
import type { AccountProfile } from './types.ts';

/**
 * How a platform connects by OAuth in the browser. The Scheduler owns the flow (state bound to
 * the user and stored hashed, the PKCE verifier kept encrypted, the callback route, the picker);
 * the connector owns only what differs per platform: the consent URL, the code exchange, and the
 * list of accounts the grant reaches (one login may administer several pages or organizations).
 * A platform module exposes one through `PlatformModule.createConnector(env)`.
 */
export interface OAuthConnector {
  readonly platform: string;
  /** Client id and secret are configured; otherwise the web app hides the connect button. */
  readonly configured: boolean;
  /** Whether the platform supports PKCE (S256); the Scheduler sends a challenge when true. */
  readonly pkce: boolean;
  authorizeUrl(input: { state: string; redirectUri: string; codeChallenge?: string }): string;
  /**
   * Optional, for platforms that need a server call before consent (an OAuth 1.0a request token,
   * a pushed authorization request): used instead of `authorizeUrl` when present. The `secret`
   * it returns is kept encrypted with the flow's state and handed back to `exchangeCode`.
   */
  startAuthorization?(input: {
    state: string;
    redirectUri: string;
    codeChallenge?: string;
    signal: AbortSignal;
  }): Promise<AuthorizeStart>;
  /**
   * Exchanges the code and lists every account the grant can publish to, each with the full
   * credentials to store. Throws `PlatformError` (`credentials_invalid`, `platform_unavailable`).
   */
  exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier?: string;
    /** What `startAuthorization` returned as `secret` (an OAuth 1.0a request-token secret). */
    secret?: string;
    /** Every query parameter of the callback (`oauth_token`, `oauth_verifier` for OAuth 1.0a). */
    query?: Readonly<Record<string, string>>;
    signal: AbortSignal;
  }): Promise<ConnectableAccount[]>;
}

/** A consent URL with what the callback leg will need (`OAuthConnector.startAuthorization`). */
export interface AuthorizeStart {
  url: string;
  secret?: string;
}

/** One account a grant reaches: saved as one connected account when the user picks it. */
export interface ConnectableAccount {
  platformAccountId: string;
  credentials: Record<string, unknown>;
  profile: AccountProfile;
  /** What kind of target it is, for the picker ("Page", "Organization", "Profile"). */
  kind?: string;
  /**
   * Set when several accounts of one login use the same credentials (Pinterest boards, Google
   * Business locations): the same opaque key (the platform's user id) on each. The Scheduler
   * stores those credentials once, so a refreshed or rotated token serves every account of the
   * login, and a revoked one marks them all `needs_reconnect`.
   */
  grantKey?: string;
}

/** A consent URL: `authorizeUrl` with these query parameters set (any it already has are kept). */
export function consentUrl(authorizeUrl: string, params: Record<string, string>): string {
  const url = new URL(authorizeUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * For a code exchange's `.catch`: a refused code is a failed sign-in, not a connection to repair,
 * so `needs_reconnect` becomes `credentials_invalid` (with `message`, or the platform's own words
 * less the advice to reconnect); any other error passes through.
 */
export function failedSignIn(message?: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof PlatformError && error.code === 'needs_reconnect')
      throw new PlatformError(
        'credentials_invalid',
        message ?? error.message.replace(/; reconnect the account/, ''),
        error.status === undefined ? {} : { status: error.status },
      );
    throw error;
  };
}
