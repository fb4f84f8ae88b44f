import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import { maxAlbumItems, maxCaptionLength, maxTextLength, type TelegramLimits } from './limits.ts';
import { isPlanProblem, maxBytesFor, type PlanProblem, planMedia, telegramMediaType } from './media-plan.ts';
import type { TelegramOptions } from './options.ts';
import { visibleLength } from './visible-text.ts';

/** Everything Telegram would refuse, found before anything is sent. */
export function validateTelegramPost(
  post: PostContent,
  media: readonly MediaInfo[],
  options: TelegramOptions,
  limits: TelegramLimits,
): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const length = visibleLength(post.message, options.parseMode);
  const units = 'characters (UTF-16 code units, as Telegram counts them; an emoji is usually 2)';

  if (media.length === 0) {
    if (post.message.trim() === '') {
      errors.push({
        code: 'text_required',
        message: 'Telegram needs a message or at least one media file',
        path: 'message',
      });
    } else if (length > maxTextLength) {
      errors.push({
        code: 'text_too_long',
        message: `The message is ${length} ${units}; Telegram allows at most ${maxTextLength}`,
        path: 'message',
      });
    }
  } else if (length > maxCaptionLength) {
    errors.push({
      code: 'caption_too_long',
      message: `With media the message becomes a caption: it is ${length} ${units}; Telegram allows at most ${maxCaptionLength}`,
      path: 'message',
    });
  }

  const plan = planMedia(media);
  if (isPlanProblem(plan)) errors.push(planIssue(plan));

  for (const [index, file] of media.entries()) {
    const type = telegramMediaType(file.contentType);
    if (!type) continue;
    const max = maxBytesFor(type, limits);
    if (file.size > max) {
      errors.push({
        code: 'media_too_large',
        message: `${file.filename} is ${file.size} bytes; Telegram accepts a ${type} of at most ${max} bytes`,
        path: `media[${index}]`,
      });
    }
    if (type === 'document' && file.contentType.startsWith('video/')) {
      warnings.push({
        code: 'media_sent_as_file',
        message: `${file.filename} (${file.contentType}) is sent as a file: Telegram plays only MP4 videos inline`,
        path: `media[${index}]`,
      });
    }
  }

  if (options.linkPreview !== undefined && media.length > 0) {
    warnings.push({
      code: 'option_ignored',
      message: 'linkPreview applies only to posts without media',
      path: 'options.linkPreview',
    });
  }
  return { errors, warnings };
}

function planIssue(problem: PlanProblem): ValidationIssue {
  switch (problem.code) {
    case 'media_type_unsupported':
      return {
        code: problem.code,
        message: `Telegram cannot publish ${problem.contentType} files`,
        path: `media[${problem.index}]`,
      };
    case 'too_many_media':
      return {
        code: problem.code,
        message: `The post has ${problem.count} media files; a Telegram album holds at most ${maxAlbumItems}`,
        path: 'media',
      };
    case 'media_mix_unsupported':
      return {
        code: problem.code,
        message:
          problem.reason === 'documents'
            ? 'Telegram albums cannot mix files (PDF, MOV, WebM) with photos or videos; send them in separate posts'
            : 'GIFs cannot be part of a Telegram album; post a GIF on its own',
        path: 'media',
      };
  }
}
