import { envBaseUrl, envPositiveInt } from '../env.ts';
import { defaultGraphVersion } from '../facebook/config.ts';
import { versionedGraphBase } from '../facebook/graph.ts';
import type { Env } from '../types.ts';

export interface InstagramConfig {
  /** `INSTAGRAM_GRAPH_URL` without a version: token exchange and refresh live there. */
  graphRoot: string;
  /** Versioned base for Instagram Login accounts. */
  graphBase: string;
  /** Versioned Facebook Graph base, for accounts linked through a Page (`loginType: "facebook"`). */
  facebookGraphBase: string;
  authorizeUrl: string;
  tokenUrl: string;
  facebookAuthorizeUrl: string;
  appId: string | undefined;
  appSecret: string | undefined;
  /** How accounts connect in the Scheduler: Instagram Login, or Facebook Login through a Page. */
  login: 'instagram' | 'facebook';
  facebookLoginConfigId: string | undefined;
  pollIntervalMs: number;
  processingTimeoutMs: number;
}

export const defaultInstagramGraphUrl = 'https://graph.instagram.com';

/**
 * Reads INSTAGRAM_GRAPH_URL, INSTAGRAM_GRAPH_VERSION, INSTAGRAM_OAUTH_AUTHORIZE_URL,
 * INSTAGRAM_OAUTH_TOKEN_URL, INSTAGRAM_APP_ID, INSTAGRAM_APP_SECRET, INSTAGRAM_LOGIN,
 * INSTAGRAM_POLL_INTERVAL_MS, INSTAGRAM_PROCESSING_TIMEOUT_MS, and for Facebook Login
 * FACEBOOK_GRAPH_URL, FACEBOOK_OAUTH_AUTHORIZE_URL, FACEBOOK_APP_ID/SECRET and FACEBOOK_LOGIN_CONFIG_ID.
 */
export function instagramConfigFromEnv(env: Env): InstagramConfig {
  const version = env.INSTAGRAM_GRAPH_VERSION || defaultGraphVersion;
  if (!/^v\d+\.\d+$/.test(version) && version !== 'none') {
    throw new Error(`INSTAGRAM_GRAPH_VERSION must look like v23.0 (or "none"), got "${version}"`);
  }
  const login = env.INSTAGRAM_LOGIN || 'instagram';
  if (login !== 'instagram' && login !== 'facebook') {
    throw new Error(`INSTAGRAM_LOGIN must be "instagram" or "facebook", got "${login}"`);
  }
  const graphUrl = envBaseUrl(env, 'INSTAGRAM_GRAPH_URL', defaultInstagramGraphUrl);
  const facebookGraphUrl = envBaseUrl(env, 'FACEBOOK_GRAPH_URL', 'https://graph.facebook.com');
  const dialogVersion = version === 'none' ? defaultGraphVersion : version;
  // With Facebook Login the app is the Facebook app; Instagram Login has its own app id and secret.
  const appId = login === 'facebook' ? env.FACEBOOK_APP_ID : env.INSTAGRAM_APP_ID;
  const appSecret = login === 'facebook' ? env.FACEBOOK_APP_SECRET : env.INSTAGRAM_APP_SECRET;
  return {
    graphRoot: graphUrl.replace(/\/v\d+\.\d+$/, ''),
    graphBase: versionedGraphBase(graphUrl, version),
    facebookGraphBase: versionedGraphBase(facebookGraphUrl, version),
    authorizeUrl: envBaseUrl(
      env,
      'INSTAGRAM_OAUTH_AUTHORIZE_URL',
      'https://www.instagram.com/oauth/authorize',
    ),
    tokenUrl: envBaseUrl(env, 'INSTAGRAM_OAUTH_TOKEN_URL', 'https://api.instagram.com/oauth/access_token'),
    facebookAuthorizeUrl: envBaseUrl(
      env,
      'FACEBOOK_OAUTH_AUTHORIZE_URL',
      `https://www.facebook.com/${dialogVersion}/dialog/oauth`,
    ),
    appId: appId || undefined,
    appSecret: appSecret || undefined,
    login,
    facebookLoginConfigId: env.FACEBOOK_LOGIN_CONFIG_ID || undefined,
    pollIntervalMs: envPositiveInt(env, 'INSTAGRAM_POLL_INTERVAL_MS', 2_000),
    processingTimeoutMs: envPositiveInt(env, 'INSTAGRAM_PROCESSING_TIMEOUT_MS', 5 * 60_000),
  };
}
