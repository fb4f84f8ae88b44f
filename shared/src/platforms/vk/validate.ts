import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { maxMedia, maxMessageLength, maxPhotoBytes, photoTypes } from './limits.ts';

/**
 * A VK wall post's rules, checked before anything is uploaded: up to 16384 characters, text or
 * photos, at most 10 photos of the wall upload server's types and size. Browser-safe.
 */
export function validateVkPost(post: PostContent, media: readonly MediaInfo[]): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const length = codePointLength(post.message);
  if (length > maxMessageLength)
    errors.push({
      code: 'text_too_long',
      message: `A VK post holds ${maxMessageLength} characters; this one has ${length}`,
      path: 'message',
    });
  if (post.message.trim() === '' && media.length === 0)
    errors.push({ code: 'text_required', message: 'A VK post needs text or photos', path: 'message' });
  if (media.length > maxMedia)
    errors.push({
      code: 'too_many_media',
      message: `A VK post takes up to ${maxMedia} attachments; this one has ${media.length}`,
      path: 'media',
    });
  for (const [index, file] of media.entries()) {
    const path = `media[${index}]`;
    if (!photoTypes.includes(file.contentType))
      errors.push({
        code: 'media_type_unsupported',
        message: `VK wall photos are JPG, PNG or GIF, not ${file.contentType}`,
        path,
      });
    else if (file.size > maxPhotoBytes)
      errors.push({ code: 'media_too_large', message: 'VK takes photos up to 50 MB', path });
  }
  return { errors, warnings: [] };
}

/** The wall's owner id: a user id, or `-<group id>` for a community. */
export function isOwnerId(value: string): boolean {
  return /^-?[1-9]\d{0,18}$/.test(value);
}
