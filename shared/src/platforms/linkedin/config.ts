import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export interface LinkedInConfig {
  apiUrl: string;
  oauthUrl: string;
  /** `LinkedIn-Version` header (YYYYMM): LinkedIn sunsets each version after about a year. */
  version: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Ask for organization scopes and list the pages the member administers. */
  organizations: boolean;
  videoPollIntervalMs: number;
  videoProcessingTimeoutMs: number;
}

export const defaultLinkedInApiUrl = 'https://api.linkedin.com';
export const defaultLinkedInOAuthUrl = 'https://www.linkedin.com/oauth/v2';
export const defaultLinkedInVersion = '202601';

/**
 * Reads LINKEDIN_API_URL, LINKEDIN_OAUTH_URL, LINKEDIN_VERSION, LINKEDIN_CLIENT_ID,
 * LINKEDIN_CLIENT_SECRET, LINKEDIN_ORGANIZATIONS, LINKEDIN_VIDEO_POLL_INTERVAL_MS and
 * LINKEDIN_VIDEO_TIMEOUT_MS; throws on bad values at start.
 */
export function linkedInConfigFromEnv(env: Env): LinkedInConfig {
  const version = env.LINKEDIN_VERSION || defaultLinkedInVersion;
  if (!/^\d{6}(\.\d{2})?$/.test(version)) {
    throw new Error(`LINKEDIN_VERSION must look like 202601 (YYYYMM), got "${version}"`);
  }
  const organizations = env.LINKEDIN_ORGANIZATIONS ?? '';
  if (!['', 'true', 'false'].includes(organizations)) {
    throw new Error(`LINKEDIN_ORGANIZATIONS must be true or false, got "${organizations}"`);
  }
  return {
    apiUrl: envBaseUrl(env, 'LINKEDIN_API_URL', defaultLinkedInApiUrl),
    oauthUrl: envBaseUrl(env, 'LINKEDIN_OAUTH_URL', defaultLinkedInOAuthUrl),
    version,
    clientId: env.LINKEDIN_CLIENT_ID || undefined,
    clientSecret: env.LINKEDIN_CLIENT_SECRET || undefined,
    organizations: organizations === 'true',
    videoPollIntervalMs: envPositiveInt(env, 'LINKEDIN_VIDEO_POLL_INTERVAL_MS', 3_000),
    videoProcessingTimeoutMs: envPositiveInt(env, 'LINKEDIN_VIDEO_TIMEOUT_MS', 10 * 60_000),
  };
}
