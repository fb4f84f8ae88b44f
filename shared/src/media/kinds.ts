/**
 * Media types the service accepts at all. Upload refuses anything else (415), because no
 * platform we publish to could use it.
 */
export const acceptedContentTypes = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'application/pdf',
] as const;
export type AcceptedContentType = (typeof acceptedContentTypes)[number];

export function isAcceptedContentType(type: string): type is AcceptedContentType {
  return (acceptedContentTypes as readonly string[]).includes(type);
}

/** How platforms treat a file: a GIF is an animation, not a photo, on most of them. */
export type MediaKind = 'image' | 'gif' | 'video' | 'document';

export function mediaKindOf(contentType: string): MediaKind {
  if (contentType === 'image/gif') return 'gif';
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  return 'document';
}

const extensions: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
};

export function extensionFor(contentType: string): string {
  return extensions[contentType] ?? 'bin';
}
