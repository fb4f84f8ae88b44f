import type { PlatformModule } from '../types.ts';
import { telegramConfigFromEnv } from './limits.ts';
import { telegramManifest } from './manifest.ts';
import { TelegramPublisher } from './publisher.ts';

export { TelegramBotApi } from './bot-api.ts';
export { telegramError } from './errors.ts';
export * from './limits.ts';
export { telegramManifest } from './manifest.ts';
export * from './options.ts';
export { TelegramPublisher, type TelegramPublisherOptions } from './publisher.ts';
export { validateTelegramPost } from './validate.ts';

export const telegramModule: PlatformModule = {
  id: telegramManifest.id,
  manifest: telegramManifest,
  create(env) {
    const { apiUrl, limits } = telegramConfigFromEnv(env);
    return new TelegramPublisher({ apiUrl, limits });
  },
};
