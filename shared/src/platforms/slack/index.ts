import type { PlatformModule } from '../types.ts';
import { slackConfigFromEnv } from './config.ts';
import { slackManifest } from './manifest.ts';
import { createSlackConnector } from './oauth.ts';
import { createSlackPublisher } from './publisher.ts';

export type { SlackConfig } from './config.ts';
export type { SlackCredentials, SlackOptions } from './options.ts';
export { createSlackConnector, createSlackPublisher, slackManifest };

/**
 * Slack channels through a bot token. Settings: SLACK_API_URL, SLACK_OAUTH_AUTHORIZE_URL,
 * SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_MAX_FILE_BYTES.
 */
export const slackModule: PlatformModule = {
  id: slackManifest.id,
  manifest: slackManifest,
  create: (env) => createSlackPublisher(slackConfigFromEnv(env)),
  createConnector: (env) => createSlackConnector(slackConfigFromEnv(env)),
};
