import type { InstanceLimits } from '../mastodon/limits.ts';

/**
 * Pixelfed's defaults (`config/pixelfed.php`), used for whatever an instance's `/api/v1/instance`
 * does not say: a 500-character caption, albums of 4, 15 MB files. Browser-safe.
 */
export const defaultPixelfedLimits: InstanceLimits = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  // Pixelfed counts a URL at its full length; the field is read but never used for counting.
  charactersReservedPerUrl: 23,
  imageSizeLimit: 15 * 1024 * 1024,
  videoSizeLimit: 15 * 1024 * 1024,
  descriptionLimit: 1000,
  supportedMimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4'],
};

export const pixelfedVisibilities = ['public', 'unlisted', 'private'] as const;
