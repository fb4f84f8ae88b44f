import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { accountIdIssue } from '../account-id.ts';
import type { PlatformAccount, PostContent, ValidationOutcome } from '../types.ts';
import { envelopeReserveBytes, eventBytes, maxEventBytes, textContent } from './content.ts';
import { maxMediaItems } from './limits.ts';
import { type MatrixOptions, matrixCredentialsSchema, roomPattern } from './options.ts';

/**
 * The checks a homeserver makes, before anything is sent: the text event within the spec's
 * 65,536 bytes, and each file within the server's upload limit when it states one.
 */
export function validateMatrixPost(
  post: PostContent,
  account: PlatformAccount,
  media: readonly MediaInfo[],
  options: MatrixOptions,
  uploadLimit: number | undefined,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  if (!matrixCredentialsSchema.safeParse(account.credentials).success) {
    errors.push({
      code: 'credentials_invalid',
      message: 'Matrix credentials need a homeserverUrl (http or https) and an accessToken',
      path: 'credentials',
    });
  }
  const id = accountIdIssue(
    account,
    roomPattern,
    'Matrix',
    'a room id (!abc:example.org) or alias (#room:example.org)',
  );
  if (id) errors.push(id);
  if (post.message.trim() === '' && media.length === 0) {
    errors.push({ code: 'text_required', message: 'A Matrix post needs text or a file', path: 'message' });
  }
  const content = textContent(post.message, options.notice);
  const bytes = eventBytes(content);
  if (bytes > maxEventBytes) {
    errors.push({
      code: 'text_too_long',
      message: `The message event would be about ${bytes} bytes; Matrix allows ${maxEventBytes} (the text and its HTML copy in UTF-8, plus ${envelopeReserveBytes} bytes kept for the event's envelope)`,
      path: 'message',
    });
  } else if (content.formatted_body === undefined && post.message.trim() !== '') {
    warnings.push({
      code: 'formatting_dropped',
      message: 'The text is too long to send with its HTML copy as well: it is sent as plain text only',
      path: 'message',
    });
  }
  if (media.length > maxMediaItems) {
    errors.push({
      code: 'too_many_media',
      message: `A Matrix post here holds at most ${maxMediaItems} files (each its own event); this one has ${media.length}`,
      path: 'media',
    });
  }
  if (uploadLimit !== undefined) {
    media.forEach((file, index) => {
      if (file.size > uploadLimit) {
        errors.push({
          code: 'media_too_large',
          message: `${file.filename} is ${file.size} bytes; this homeserver accepts uploads up to ${uploadLimit} bytes`,
          path: `media[${index}]`,
        });
      }
    });
  }
  return { errors, warnings };
}
