import type { PlatformModule } from '../types.ts';
import { wordpressManifest } from './manifest.ts';
import { WordPressPublisher } from './publisher.ts';

export { wordpressManifest } from './manifest.ts';
export type { WordPressCredentials, WordPressOptions } from './options.ts';
export { WordPressPublisher } from './publisher.ts';

/** WordPress through its REST API with an application password; the site is user-chosen (no env). */
export const wordpressModule: PlatformModule = {
  id: wordpressManifest.id,
  manifest: wordpressManifest,
  create: () => new WordPressPublisher(),
};
