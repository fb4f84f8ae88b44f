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
   * Exchanges the code and lists every account the grant can publish to, each with the full
   * credentials to store. Throws `PlatformError` (`credentials_invalid`, `platform_unavailable`).
   */
  exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier?: string;
    signal: AbortSignal;
  }): Promise<ConnectableAccount[]>;
}

/** One account a grant reaches: saved as one connected account when the user picks it. */
export interface ConnectableAccount {
  platformAccountId: string;
  credentials: Record<string, unknown>;
  profile: AccountProfile;
  /** What kind of target it is, for the picker ("Page", "Organization", "Profile"). */
  kind?: string;
}
