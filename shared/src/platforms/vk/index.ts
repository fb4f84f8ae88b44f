import type { PlatformModule } from '../types.ts';
import { vkConfigFromEnv } from './config.ts';
import { vkManifest } from './manifest.ts';
import { VkPublisher } from './publisher.ts';

export { type VkConfig, vkConfigFromEnv } from './config.ts';
export type { VkCredentials, VkOptions } from './options.ts';
export { VkPublisher, wallGuid } from './publisher.ts';
export { vkManifest };

/** VK walls (a user's or a community's) through the VK API 5.199. Settings: VK_API_URL (docs/platforms/vk.md). */
export const vkModule: PlatformModule = {
  id: 'vk',
  manifest: vkManifest,
  create: (env) => new VkPublisher(vkConfigFromEnv(env)),
};
