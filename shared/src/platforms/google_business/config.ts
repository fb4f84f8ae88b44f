import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultGoogleBusinessApiUrl = 'https://mybusiness.googleapis.com';
const defaultAccountsUrl = 'https://mybusinessaccountmanagement.googleapis.com';
const defaultInformationUrl = 'https://mybusinessbusinessinformation.googleapis.com';
const defaultTokenUrl = 'https://oauth2.googleapis.com/token';

export interface GoogleBusinessConfig {
  /** Local posts: `{apiUrl}/v4/accounts/{a}/locations/{l}/localPosts`. */
  apiUrl: string;
  /** Account Management API: `{accountsUrl}/v1/accounts`. */
  accountsUrl: string;
  /** Business Information API: `{informationUrl}/v1/{account}/locations`, `/v1/locations/{l}`. */
  informationUrl: string;
  tokenUrl: string;
  /** The zone an event's or offer's instant is written in (Google reads the schedule as local time). */
  timeZone: string;
}

/**
 * Reads GOOGLE_BUSINESS_API_URL, GOOGLE_BUSINESS_ACCOUNTS_URL, GOOGLE_BUSINESS_INFORMATION_URL,
 * GOOGLE_OAUTH_TOKEN_URL and GOOGLE_BUSINESS_TIME_ZONE. The account and location lists live on
 * Google's own hosts; a custom GOOGLE_BUSINESS_API_URL (a proxy, a test fake) brings them along
 * unless their own variables say otherwise.
 */
export function googleBusinessConfigFromEnv(env: Env): GoogleBusinessConfig {
  const apiUrl = envBaseUrl(env, 'GOOGLE_BUSINESS_API_URL', defaultGoogleBusinessApiUrl);
  const custom = apiUrl !== defaultGoogleBusinessApiUrl;
  const timeZone = (env.GOOGLE_BUSINESS_TIME_ZONE ?? '').trim() || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new Error(
      `GOOGLE_BUSINESS_TIME_ZONE must be an IANA time zone such as Europe/Berlin, got "${timeZone}"`,
    );
  }
  return {
    apiUrl,
    accountsUrl: envBaseUrl(env, 'GOOGLE_BUSINESS_ACCOUNTS_URL', custom ? apiUrl : defaultAccountsUrl),
    informationUrl: envBaseUrl(
      env,
      'GOOGLE_BUSINESS_INFORMATION_URL',
      custom ? apiUrl : defaultInformationUrl,
    ),
    tokenUrl: envBaseUrl(env, 'GOOGLE_OAUTH_TOKEN_URL', defaultTokenUrl),
    timeZone,
  };
}
