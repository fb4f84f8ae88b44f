import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';
import { versionedGraphBase } from './graph.ts';

export interface FacebookConfig {
  /** Graph base with the version segment, e.g. `https://graph.facebook.com/v23.0`. */
  graphBase: string;
  /** Where videos go (graph-video.facebook.com), with the version segment. */
  videoBase: string;
  authorizeUrl: string;
  appId: string | undefined;
  appSecret: string | undefined;
  /** A Facebook Login for Business configuration id; without it the scopes are asked directly. */
  loginConfigId: string | undefined;
  /** Videos larger than this are uploaded from storage in chunks; smaller ones are fetched by URL. */
  resumableVideoBytes: number;
}

export const defaultGraphVersion = 'v23.0';
export const defaultFacebookGraphUrl = 'https://graph.facebook.com';
export const defaultFacebookVideoUrl = 'https://graph-video.facebook.com';

export function graphVersionFromEnv(env: Env): string {
  const version = env.FACEBOOK_GRAPH_VERSION || defaultGraphVersion;
  if (!/^v\d+\.\d+$/.test(version) && version !== 'none') {
    throw new Error(`FACEBOOK_GRAPH_VERSION must look like v23.0 (or "none"), got "${version}"`);
  }
  return version;
}

/**
 * Reads FACEBOOK_GRAPH_URL, FACEBOOK_GRAPH_VIDEO_URL, FACEBOOK_GRAPH_VERSION,
 * FACEBOOK_OAUTH_AUTHORIZE_URL, FACEBOOK_APP_ID, FACEBOOK_APP_SECRET, FACEBOOK_LOGIN_CONFIG_ID and
 * FACEBOOK_RESUMABLE_VIDEO_BYTES; throws on bad values at start.
 */
export function facebookConfigFromEnv(env: Env): FacebookConfig {
  const version = graphVersionFromEnv(env);
  const graphUrl = envBaseUrl(env, 'FACEBOOK_GRAPH_URL', defaultFacebookGraphUrl);
  // A custom Graph URL (a proxy, a test fake) serves videos too unless told otherwise.
  const videoUrl = envBaseUrl(
    env,
    'FACEBOOK_GRAPH_VIDEO_URL',
    env.FACEBOOK_GRAPH_URL ? graphUrl : defaultFacebookVideoUrl,
  );
  const dialogVersion = version === 'none' ? defaultGraphVersion : version;
  return {
    graphBase: versionedGraphBase(graphUrl, version),
    videoBase: versionedGraphBase(videoUrl, version),
    authorizeUrl: envBaseUrl(
      env,
      'FACEBOOK_OAUTH_AUTHORIZE_URL',
      `https://www.facebook.com/${dialogVersion}/dialog/oauth`,
    ),
    appId: env.FACEBOOK_APP_ID || undefined,
    appSecret: env.FACEBOOK_APP_SECRET || undefined,
    loginConfigId: env.FACEBOOK_LOGIN_CONFIG_ID || undefined,
    resumableVideoBytes: envPositiveInt(env, 'FACEBOOK_RESUMABLE_VIDEO_BYTES', 100 * 1024 * 1024),
  };
}
