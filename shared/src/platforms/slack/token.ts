import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type { SlackConfig } from './config.ts';
import { slackError } from './errors.ts';
import type { SlackCredentials } from './options.ts';
import { slackRequest } from './request.ts';

/** What oauth.v2.access answers, for an install and for a renewal of a rotating token. */
export interface SlackAccess {
  access_token?: string;
  token_type?: string;
  scope?: string;
  bot_user_id?: string;
  app_id?: string;
  team?: { id?: string; name?: string } | null;
  enterprise?: { id?: string; name?: string } | null;
  /** Only with token rotation on: the token lives `expires_in` seconds (12 hours). */
  refresh_token?: string;
  expires_in?: number;
}

/** Renew this long before the stated expiry, so a token never lapses mid-publish. */
const expirySkewMs = 5 * 60_000;
/** How long a renewal's result is kept for callers still holding the refresh token it spent. */
const rotationMemoryMs = 10 * 60_000;

/** Calls oauth.v2.access with the app's credentials: a code exchange or a token renewal. */
export async function requestSlackAccess(
  config: SlackConfig,
  params: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<SlackAccess> {
  if (!config.clientId || !config.clientSecret) {
    throw new PlatformError('credentials_invalid', 'SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are not set');
  }
  const answer = await slackRequest<SlackAccess>(
    config.apiUrl,
    'oauth.v2.access',
    { client_id: config.clientId, client_secret: config.clientSecret, ...params },
    { signal },
  );
  if (!answer.ok) throw slackError(answer.error ?? 'unknown_error', 'token', { status: 200 });
  if (!answer.access_token) throw new PlatformError('credentials_invalid', 'Slack returned no bot token');
  return answer;
}

/** The stored credentials' part that oauth.v2.access renews. */
export function tokensOf(access: SlackAccess, now = Date.now()): Partial<SlackCredentials> {
  return {
    botToken: access.access_token!,
    ...(access.refresh_token ? { refreshToken: access.refresh_token } : {}),
    ...(access.refresh_token && access.expires_in
      ? { expiresAt: new Date(now + access.expires_in * 1000).toISOString() }
      : {}),
  };
}

/**
 * Renewals of rotating tokens, one at a time per refresh token: Slack revokes a refresh token
 * once it is used, so callers arriving with the one just spent get that renewal's result.
 */
export class SlackRenewals {
  readonly #byToken = new Map<string, { result: Promise<Partial<SlackCredentials>>; at: number }>();

  renew(
    refreshToken: string,
    task: () => Promise<Partial<SlackCredentials>>,
  ): Promise<Partial<SlackCredentials>> {
    const now = Date.now();
    for (const [key, entry] of this.#byToken)
      if (now - entry.at > rotationMemoryMs) this.#byToken.delete(key);
    const key = createHash('sha256').update(refreshToken).digest('base64url');
    const known = this.#byToken.get(key);
    if (known) return known.result;
    const result = task();
    this.#byToken.set(key, { result, at: now });
    // A failed renewal is not remembered: the next caller tries again.
    result.catch(() => this.#byToken.delete(key));
    return result;
  }
}

/**
 * The bot token of one publish or check. Without token rotation it is used as stored; with it
 * (credentials carry `refreshToken` and `expiresAt`) it is renewed ahead of expiry, or once after
 * Slack calls it expired, and the new pair is handed to `onRenewed` for storing.
 */
export class SlackToken {
  #credentials: SlackCredentials;
  readonly #config: SlackConfig;
  readonly #renewals: SlackRenewals;
  readonly #signal: AbortSignal | undefined;
  readonly #onRenewed: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;

  constructor(options: {
    credentials: SlackCredentials;
    config: SlackConfig;
    renewals: SlackRenewals;
    signal?: AbortSignal | undefined;
    onRenewed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  }) {
    this.#credentials = options.credentials;
    this.#config = options.config;
    this.#renewals = options.renewals;
    this.#signal = options.signal;
    this.#onRenewed = options.onRenewed;
  }

  get canRenew(): boolean {
    return Boolean(this.#credentials.refreshToken && this.#config.clientId && this.#config.clientSecret);
  }

  async current(): Promise<string> {
    const { expiresAt } = this.#credentials;
    if (expiresAt !== undefined && this.canRenew) {
      const expiry = typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
      if (expiry - expirySkewMs <= Date.now()) await this.renew();
    }
    return this.#credentials.botToken;
  }

  async renew(): Promise<void> {
    const refreshToken = this.#credentials.refreshToken;
    if (!refreshToken || !this.canRenew) return;
    const renewed = await this.#renewals.renew(refreshToken, async () =>
      tokensOf(
        await requestSlackAccess(
          this.#config,
          { grant_type: 'refresh_token', refresh_token: refreshToken },
          this.#signal,
        ),
      ),
    );
    this.#credentials = { ...this.#credentials, ...renewed };
    await this.#onRenewed?.({ ...this.#credentials });
  }
}
