/** What an instance allows; every Mastodon server can configure these. */
export interface InstanceLimits {
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  /** Alt text length; absent on servers older than 4.4, which allowed 1500. */
  descriptionLimit: number;
  supportedMimeTypes: readonly string[];
}

/** Mastodon's own defaults, used for whatever an instance does not say. */
export const defaultInstanceLimits: InstanceLimits = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersReservedPerUrl: 23,
  imageSizeLimit: 16 * 1024 * 1024,
  videoSizeLimit: 99 * 1024 * 1024,
  descriptionLimit: 1500,
  supportedMimeTypes: [
    'image/jpeg',
    'image/png',
    'image/gif',
    'image/heic',
    'image/heif',
    'image/webp',
    'image/avif',
    'video/webm',
    'video/mp4',
    'video/quicktime',
    'video/ogg',
  ],
};
