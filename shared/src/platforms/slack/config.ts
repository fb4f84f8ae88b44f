import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultSlackApiUrl = 'https://slack.com/api';

export interface SlackConfig {
  /** The Web API base (`https://slack.com/api`): methods are `<apiUrl>/<method>`. */
  apiUrl: string;
  /** Slack's consent page for OAuth v2 installs. */
  authorizeUrl: string;
  /** The Slack app's credentials: installs in the Scheduler and renewing rotating tokens. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Largest file sent to Slack (Slack takes up to 1 GB; a workspace may allow less). */
  maxFileBytes: number;
}

/**
 * The consent page lives beside the API on the same host (`https://slack.com/oauth/v2/authorize`),
 * so a custom SLACK_API_URL (a proxy, a test fake) brings its consent page along unless
 * SLACK_OAUTH_AUTHORIZE_URL says otherwise.
 */
function defaultAuthorizeUrl(apiUrl: string): string {
  const url = new URL(apiUrl);
  const base = url.pathname.replace(/\/api\/?$/, '').replace(/\/+$/, '');
  return `${url.origin}${base}/oauth/v2/authorize`;
}

/**
 * Reads SLACK_API_URL, SLACK_OAUTH_AUTHORIZE_URL, SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and
 * SLACK_MAX_FILE_BYTES; throws on bad values at start.
 */
export function slackConfigFromEnv(env: Env): SlackConfig {
  const apiUrl = envBaseUrl(env, 'SLACK_API_URL', defaultSlackApiUrl);
  return {
    apiUrl,
    authorizeUrl: envBaseUrl(env, 'SLACK_OAUTH_AUTHORIZE_URL', defaultAuthorizeUrl(apiUrl)),
    clientId: env.SLACK_CLIENT_ID || undefined,
    clientSecret: env.SLACK_CLIENT_SECRET || undefined,
    maxFileBytes: envPositiveInt(env, 'SLACK_MAX_FILE_BYTES', 1024 * 1024 * 1024),
  };
}
