import { PlatformError } from '../../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../../http/fetch.ts';
import type { Logger } from '../../logger.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import type { AccountProfile } from '../types.ts';
import { LinkedInApi } from './api.ts';
import type { LinkedInConfig } from './config.ts';
import type { LinkedInCredentials } from './options.ts';

export const memberScopes = ['openid', 'profile', 'w_member_social'];
/** Posting as a page, and listing the pages the member administers (Community Management API). */
export const organizationScopes = ['w_organization_social', 'r_organization_admin'];
/** Refresh this long before expiry: member tokens live 60 days, so a day early costs nothing. */
const refreshAheadMs = 24 * 60 * 60 * 1000;

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  scope?: string;
  error?: string;
  error_description?: string;
}

/** A grant at `${LINKEDIN_OAUTH_URL}/accessToken`, as credentials to store. */
export async function requestLinkedInToken(
  config: LinkedInConfig,
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<LinkedInCredentials & { scope?: string }> {
  if (!config.clientId || !config.clientSecret) {
    throw new PlatformError(
      'credentials_invalid',
      'LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET are not set',
    );
  }
  const response = await platformFetch(`${config.oauthUrl}/accessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      ...form,
      client_id: config.clientId,
      client_secret: config.clientSecret,
    }).toString(),
    signal,
  });
  const body = ((await readJson(response)) ?? {}) as TokenAnswer;
  if (response.ok && typeof body.access_token === 'string') {
    return {
      accessToken: body.access_token,
      expiresAt: new Date(Date.now() + (body.expires_in ?? 5_184_000) * 1000).toISOString(),
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
      ...(body.scope ? { scope: body.scope } : {}),
    };
  }
  const said = body.error
    ? ` (${body.error}${body.error_description ? `: ${body.error_description.slice(0, 200)}` : ''})`
    : '';
  if (response.status === 429) {
    throw new PlatformError('rate_limited', 'LinkedIn sign-in is rate limited; retry later', {
      status: 429,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    });
  }
  if (response.status >= 500) {
    throw new PlatformError(
      'platform_unavailable',
      `LinkedIn sign-in is unavailable (HTTP ${response.status})`,
      {
        status: response.status,
      },
    );
  }
  if (body.error === 'invalid_client') {
    throw new PlatformError('credentials_invalid', `LinkedIn refused the app's client id or secret${said}`, {
      status: response.status,
    });
  }
  throw new PlatformError(
    'needs_reconnect',
    `LinkedIn no longer accepts this connection; reconnect the account${said}`,
    {
      status: response.status,
    },
  );
}

/**
 * The access token for one publish: refreshed ahead of expiry when a refresh token and the
 * app's client credentials are at hand (LinkedIn grants refresh tokens to approved apps only),
 * and handed back through `onRefreshed` so the caller stores it.
 */
export class LinkedInToken {
  #credentials: LinkedInCredentials;
  readonly #config: LinkedInConfig;
  readonly #signal: AbortSignal | undefined;
  readonly #onRefreshed: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  readonly #logger: Logger | undefined;

  constructor(options: {
    config: LinkedInConfig;
    credentials: LinkedInCredentials;
    signal?: AbortSignal | undefined;
    onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
    logger?: Logger | undefined;
  }) {
    this.#config = options.config;
    this.#credentials = options.credentials;
    this.#signal = options.signal;
    this.#onRefreshed = options.onRefreshed;
    this.#logger = options.logger;
  }

  #refreshed = false;

  get #canRefresh(): boolean {
    return Boolean(this.#credentials.refreshToken && this.#config.clientId && this.#config.clientSecret);
  }

  async get(now = Date.now()): Promise<string> {
    const { expiresAt } = this.#credentials;
    if (
      this.#canRefresh &&
      !this.#refreshed &&
      expiresAt !== undefined &&
      expiryOf(expiresAt) - refreshAheadMs <= now
    ) {
      await this.refresh();
    }
    return this.#credentials.accessToken;
  }

  /** After a 401: refresh once if possible. */
  async refreshOnce(): Promise<boolean> {
    if (!this.#canRefresh || this.#refreshed) return false;
    await this.refresh();
    return true;
  }

  async refresh(): Promise<void> {
    const tokens = await requestLinkedInToken(
      this.#config,
      { grant_type: 'refresh_token', refresh_token: this.#credentials.refreshToken ?? '' },
      this.#signal,
    );
    this.#refreshed = true;
    this.#credentials = {
      ...this.#credentials,
      accessToken: tokens.accessToken,
      ...(tokens.expiresAt ? { expiresAt: tokens.expiresAt } : {}),
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
    };
    try {
      await this.#onRefreshed?.({ ...this.#credentials });
    } catch (error) {
      this.#logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'storing refreshed LinkedIn credentials failed',
      );
    }
  }
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}

interface UserInfo {
  sub?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
}
interface OrganizationAcls {
  elements?: { organization?: string; role?: string; state?: string }[];
}
interface Organization {
  id?: number;
  localizedName?: string;
  vanityName?: string;
}

/** The member's profile from the OpenID Connect userinfo endpoint. */
export async function memberProfile(
  api: LinkedInApi,
): Promise<AccountProfile & { platformAccountId: string }> {
  const info = await api.json<UserInfo>('/v2/userinfo', {}, 'the profile lookup');
  if (!info.sub) throw new PlatformError('internal', 'LinkedIn returned a profile without a member id');
  const name = info.name ?? ([info.given_name, info.family_name].filter(Boolean).join(' ') || info.sub);
  return {
    name,
    ...(info.picture ? { avatarUrl: info.picture } : {}),
    platformAccountId: `urn:li:person:${info.sub}`,
  };
}

export async function organizationProfile(
  api: LinkedInApi,
  urn: string,
): Promise<AccountProfile & { platformAccountId: string }> {
  const id = urn.slice('urn:li:organization:'.length);
  const org = await api.json<Organization>(`/rest/organizations/${id}`, {}, 'the organization lookup');
  return {
    name: org.localizedName ?? urn,
    ...(org.vanityName ? { username: org.vanityName } : {}),
    platformAccountId: urn,
  };
}

/** Organizations the member administers (approved ADMINISTRATOR role). */
export async function administeredOrganizations(api: LinkedInApi): Promise<string[]> {
  const acls = await api.json<OrganizationAcls>(
    '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED',
    {},
    'the organization list',
  );
  const urns = (acls.elements ?? [])
    .filter((e) => e.state === undefined || e.state === 'APPROVED')
    .map((e) => e.organization)
    .filter((urn): urn is string => typeof urn === 'string' && /^urn:li:organization:\d+$/.test(urn));
  return [...new Set(urns)];
}

/** "Sign in with LinkedIn": the member, plus every page they administer when enabled. */
export function createLinkedInConnector(config: LinkedInConfig): OAuthConnector {
  const scopes = config.organizations ? [...memberScopes, ...organizationScopes] : memberScopes;
  return {
    platform: 'linkedin',
    configured: Boolean(config.clientId && config.clientSecret),
    pkce: false,
    authorizeUrl({ state, redirectUri }) {
      const url = new URL(`${config.oauthUrl}/authorization`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', config.clientId ?? '');
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('scope', scopes.join(' '));
      return url.toString();
    },
    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const { scope, ...credentials } = await requestLinkedInToken(
        config,
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
        signal,
      );
      const api = new LinkedInApi(config, { get: async () => credentials.accessToken }, signal);
      const member = await memberProfile(api);
      const accounts: ConnectableAccount[] = [
        { platformAccountId: member.platformAccountId, credentials, profile: member, kind: 'Profile' },
      ];
      const granted = (scope ?? scopes.join(' ')).split(/[ ,]+/);
      if (config.organizations && granted.includes('r_organization_admin')) {
        for (const urn of await administeredOrganizations(api)) {
          const profile = await organizationProfile(api, urn);
          accounts.push({ platformAccountId: urn, credentials, profile, kind: 'Organization' });
        }
      }
      return accounts;
    },
  };
}
