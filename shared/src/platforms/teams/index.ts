import type { PlatformModule } from '../types.ts';
import { teamsManifest } from './manifest.ts';
import { createTeamsPublisher } from './publisher.ts';

export type { TeamsCredentials, TeamsOptions } from './options.ts';
export { createTeamsPublisher, teamsManifest };

/** Microsoft Teams channels through Workflows webhooks; the webhook URL is user-chosen, no settings. */
export const teamsModule: PlatformModule = {
  id: teamsManifest.id,
  manifest: teamsManifest,
  create: () => createTeamsPublisher(),
};
