import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { codePointLength } from '../../text.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import {
  imageTypes,
  maxGifBytes,
  maxImageBytes,
  maxMedia,
  maxTextBlockLength,
  maxVideoBytes,
  maxVideos,
  textBlocks,
  videoTypes,
} from './limits.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Tumblr's rules for one NPF post, checked before anything is sent: every text block (one per
 * paragraph) up to 4096 characters, text or media, at most 10 images or videos with one video,
 * and Tumblr's types and sizes. Browser-safe.
 */
export function validateTumblrPost(post: PostContent, media: readonly MediaInfo[]): ValidationOutcome {
  const errors: ValidationIssue[] = [];
  for (const [index, block] of textBlocks(post.message).entries()) {
    const length = codePointLength(block);
    if (length > maxTextBlockLength) {
      errors.push({
        code: 'text_too_long',
        message: `Tumblr takes up to ${maxTextBlockLength} characters per paragraph (text block); paragraph ${index + 1} has ${length}. Split it with a blank line.`,
        path: 'message',
      });
    }
  }
  if (post.message.trim() === '' && media.length === 0)
    errors.push({ code: 'text_required', message: 'A Tumblr post needs text or media', path: 'message' });
  if (media.length > maxMedia) {
    errors.push({
      code: 'too_many_media',
      message: `A Tumblr post takes up to ${maxMedia} images or videos here; this one has ${media.length}`,
      path: 'media',
    });
  }
  if (media.filter((m) => m.kind === 'video').length > maxVideos) {
    errors.push({ code: 'media_mix_unsupported', message: 'A Tumblr post takes one video', path: 'media' });
  }
  for (const [index, file] of media.entries()) {
    const path = `media[${index}]`;
    const video = file.kind === 'video';
    const types = video ? videoTypes : imageTypes;
    if (file.kind === 'document' || !types.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `Tumblr takes JPEG, PNG, GIF or WebP images and MP4 or MOV videos, not ${file.contentType}`,
        path,
      });
      continue;
    }
    const limit = video ? maxVideoBytes : file.contentType === 'image/gif' ? maxGifBytes : maxImageBytes;
    if (file.size > limit) {
      errors.push({
        code: 'media_too_large',
        message: `Tumblr accepts ${video ? 'videos' : file.contentType === 'image/gif' ? 'GIFs' : 'images'} up to ${megabytes(limit)}; "${file.filename}" is ${megabytes(file.size)}`,
        path,
      });
    }
  }
  return { errors, warnings: [] };
}
