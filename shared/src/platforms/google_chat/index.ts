import type { PlatformModule } from '../types.ts';
import { googleChatManifest } from './manifest.ts';
import { createGoogleChatPublisher } from './publisher.ts';

export type { GoogleChatCredentials, GoogleChatOptions } from './options.ts';
export { createGoogleChatPublisher, googleChatManifest };

/** Google Chat spaces through incoming webhooks; the webhook URL is user-chosen, no settings. */
export const googleChatModule: PlatformModule = {
  id: googleChatManifest.id,
  manifest: googleChatManifest,
  create: () => createGoogleChatPublisher(),
};
