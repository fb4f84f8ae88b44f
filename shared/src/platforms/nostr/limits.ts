/**
 * NIP-01 sets no text limit, but relays cap whole events (strfry's default is 64 KiB): the note's
 * text is held to 64,000 UTF-8 bytes so the event with its tags and signature fits. Browser-safe.
 */
export const maxContentBytes = 64_000;
/** Media go by URL, each with an `imeta` tag; more than a handful makes an unreadable note. */
export const maxMediaItems = 10;
/** Alt text travels in the `imeta` tag; clients show about this much. */
export const maxAltTextLength = 1_500;
export const mediaTypes = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'video/quicktime',
];
