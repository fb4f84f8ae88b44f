import type { MediaInfo } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { mediaUrlWarnings } from '../public-media-url.ts';
import type { PostContent, ValidationOutcome } from '../types.ts';
import type { TikTokVideoSource } from './config.ts';
import {
  maxCaptionLength,
  maxPhotoBytes,
  maxPhotos,
  maxVideoBytes,
  photoTypes,
  videoTypes,
} from './limits.ts';
import type { TikTokOptions } from './options.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export interface TikTokRules {
  /** Whether TikTok has audited the app (TIKTOK_APP_AUDITED). */
  audited: boolean;
  videoSource: TikTokVideoSource;
}

/**
 * TikTok's rules for one post, before creator_info is asked: one video or 1 to 35 photos, the
 * caption length, file types and sizes, and the privacy level an unaudited app may use.
 * Browser-safe; the publisher adds the creator's own privacy levels (`option_not_offered`).
 */
export function validateTikTokPost(
  post: PostContent,
  media: readonly MediaInfo[],
  options: TikTokOptions,
  rules: TikTokRules,
  accountId: string,
): ValidationOutcome {
  const optionPath = (name: string) => `accountOptions.${accountId}.${name}`;
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  if (post.message.length > maxCaptionLength) {
    errors.push({
      code: 'caption_too_long',
      message: `TikTok allows ${maxCaptionLength} characters in a caption; this one has ${post.message.length}`,
      path: 'message',
    });
  }
  // A missing privacy level is refused by the manifest's `required` (option_required), and one the
  // creator is not offered by its `choicesFrom` (option_not_offered), in the posting service.
  if (options.privacyLevel && !rules.audited && options.privacyLevel !== 'SELF_ONLY') {
    // TikTok refuses anything else from an unaudited app (unaudited_client_can_only_post_to_private_accounts).
    warnings.push({
      code: 'unaudited_app_self_only',
      message:
        'Until TikTok audits this app (TIKTOK_APP_AUDITED=true), its posts may only be private (privacy level SELF_ONLY, "Only me"); TikTok refuses other levels',
      path: optionPath('privacyLevel'),
    });
  }
  const videos = media.filter((file) => file.kind === 'video');
  if (media.length === 0) {
    errors.push({
      code: 'media_required',
      message: 'A TikTok post needs one video or 1 to 35 photos',
      path: 'media',
    });
  } else if (videos.length > 0 && media.length > 1) {
    errors.push({
      code: 'media_mix_unsupported',
      message: 'A TikTok post is one video, or photos only',
      path: 'media',
    });
  } else if (media.length > maxPhotos) {
    errors.push({
      code: 'too_many_media',
      message: `A TikTok photo post holds at most ${maxPhotos} photos; this post has ${media.length}`,
      path: 'media',
    });
  }
  const isVideo = videos.length > 0;
  if (isVideo && options.title) {
    warnings.push({
      code: 'option_ignored',
      message: 'The title option is for photo posts; a video is captioned with the message',
      path: optionPath('title'),
    });
  }
  if (!isVideo && media.length > 0 && (options.disableDuet || options.disableStitch)) {
    warnings.push({
      code: 'option_ignored',
      message: 'Duet and Stitch apply to videos only; a photo post ignores them',
      path: optionPath(options.disableDuet ? 'disableDuet' : 'disableStitch'),
    });
  }
  media.forEach((file, index) => {
    const path = `media[${index}]`;
    if (file.kind === 'video') {
      if (!videoTypes.includes(file.contentType)) {
        errors.push({
          code: 'media_type_unsupported',
          message: `TikTok accepts MP4, MOV or WebM videos, not ${file.contentType}`,
          path,
        });
      } else if (file.size > maxVideoBytes) {
        errors.push({ code: 'media_too_large', message: 'TikTok accepts videos up to 4 GB', path });
      }
    } else if (!photoTypes.includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `TikTok photo posts take JPEG or WebP photos, not ${file.contentType}`,
        path,
      });
    } else if (file.size > maxPhotoBytes) {
      errors.push({
        code: 'media_too_large',
        message: `TikTok accepts photos up to ${megabytes(maxPhotoBytes)}; "${file.filename}" is ${megabytes(file.size)}`,
        path,
      });
    }
  });
  // Photos are always pulled by TikTok from our URL; videos only with TIKTOK_VIDEO_SOURCE=PULL_FROM_URL.
  warnings.push(
    ...mediaUrlWarnings(
      media,
      'TikTok',
      (file) => file.kind !== 'video' || rules.videoSource === 'PULL_FROM_URL',
    ),
  );
  return { errors, warnings };
}
