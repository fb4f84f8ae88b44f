import type { Shortener, ShortenerClientOptions, ShortenerSettings } from './client.ts';
import { dubShortener } from './dub.ts';
import { kuttShortener } from './kutt.ts';
import { shlinkShortener } from './shlink.ts';

export * from './client.ts';
export { dubDefaultApiUrl } from './dub.ts';

/** The client for a workspace's shortener. */
export function createShortener(settings: ShortenerSettings, options: ShortenerClientOptions): Shortener {
  switch (settings.provider) {
    case 'shlink':
      return shlinkShortener(settings, options);
    case 'dub':
      return dubShortener(settings, options);
    case 'kutt':
      return kuttShortener(settings, options);
  }
}
