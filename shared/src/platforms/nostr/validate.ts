import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { graphemeLength, utf8Length } from '../../text.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { maxAltTextLength, maxContentBytes, maxMediaItems, mediaTypes } from './limits.ts';

/** The checks of one note: its text in UTF-8 bytes, media by URL (types, count, alt text). Browser-safe. */
export function validateNostrNote(post: PostContent, media: readonly MediaInfo[]): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const used = utf8Length(post.message);
  if (used > maxContentBytes) {
    errors.push({
      code: 'text_too_long',
      message: `A Nostr note may hold ${maxContentBytes} bytes of UTF-8 text (relays refuse larger events); this one has ${used}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0)
    errors.push({ code: 'text_required', message: 'A Nostr note needs text or media', path: 'message' });
  if (media.length > maxMediaItems) {
    errors.push({
      code: 'too_many_media',
      message: `A note links at most ${maxMediaItems} media files; this one has ${media.length}`,
      path: 'media',
    });
  }
  for (const [index, file] of media.entries()) {
    if (!mediaTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Nostr clients show images and videos; ${file.contentType} is neither`,
        path: `media[${index}]`,
      });
    }
    if (file.altText !== undefined && graphemeLength(file.altText) > maxAltTextLength) {
      errors.push({
        code: 'alt_text_too_long',
        message: `Alt text may be up to ${maxAltTextLength} characters`,
        path: `media[${index}].altText`,
      });
    }
  }
  // Clients load each medium from its URL, as platforms that fetch media do.
  return { errors, warnings: mediaUrlWarnings(media, 'Nostr') };
}
