import type { PlatformModule } from '../types.ts';
import { threadsConfigFromEnv } from './config.ts';
import { threadsManifest } from './manifest.ts';
import { createThreadsConnector, refreshThreadsToken } from './oauth.ts';
import { createThreadsPublisher } from './publisher.ts';

export type { ThreadsConfig } from './config.ts';
export { threadsLength } from './count.ts';
export type { ThreadsCredentials, ThreadsOptions } from './options.ts';
export { createThreadsConnector, createThreadsPublisher, refreshThreadsToken, threadsManifest };

/**
 * Threads through the Threads Graph API with long-lived user tokens. Settings: THREADS_API_URL,
 * THREADS_OAUTH_AUTHORIZE_URL, THREADS_APP_ID, THREADS_APP_SECRET, THREADS_PROCESSING_TIMEOUT_MS.
 */
export const threadsModule: PlatformModule = {
  id: 'threads',
  manifest: threadsManifest,
  create: (env) => createThreadsPublisher(threadsConfigFromEnv(env)),
  createConnector: (env) => createThreadsConnector(threadsConfigFromEnv(env)),
};
