import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { maxAltTextLength, maxFiles } from './limits.ts';

/**
 * The checks `notes/create` makes, against the instance's `maxNoteTextLength`: text in Unicode code
 * points (the API's JSON schema `maxLength`), at most 16 files, alt text (the drive file's
 * `comment`) up to 512 characters. Browser-safe.
 */
export function validateMisskeyNote(
  post: PostContent,
  media: readonly MediaInfo[],
  maxNoteTextLength: number,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const length = codePointLength(post.message);
  if (length > maxNoteTextLength) {
    errors.push({
      code: 'text_too_long',
      message: `This Misskey server allows ${maxNoteTextLength} characters; this note has ${length}`,
      path: 'message',
    });
  }
  if (post.message.trim() === '' && media.length === 0)
    errors.push({ code: 'text_required', message: 'A Misskey note needs text or files', path: 'message' });
  if (media.length > maxFiles) {
    errors.push({
      code: 'too_many_media',
      message: `A Misskey note holds at most ${maxFiles} files; this one has ${media.length}`,
      path: 'media',
    });
  }
  for (const [index, file] of media.entries()) {
    if (file.altText !== undefined && codePointLength(file.altText) > maxAltTextLength) {
      errors.push({
        code: 'alt_text_too_long',
        message: `Alt text may be up to ${maxAltTextLength} characters on Misskey`,
        path: `media[${index}].altText`,
      });
    }
  }
  return { errors, warnings: [] };
}
