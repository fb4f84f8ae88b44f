import type { MediaInfo } from '../media/media-file.ts';
import type { ValidationIssue } from '../schemas/results.ts';

type FileFacts = Pick<MediaInfo, 'filename' | 'size' | 'contentType'>;

/** How a platform limits one kind of file, with its own wording for each refusal. */
interface KindRules {
  types: readonly string[];
  maxBytes?: number;
  /** Below it the platform may refuse the file: a warning, not an error. */
  minBytes?: number;
  unsupported(contentType: string): string;
  tooLarge?(file: FileFacts): string;
  tooSmall?(file: FileFacts): string;
}

/** A post of images (or other stills) or of one video, never both, as Facebook and LinkedIn take it. */
export interface MediaRuleSet {
  video: KindRules;
  /** Every file that is not a video. */
  image: KindRules;
  maxItems: number;
  mixed: string;
  tooMany(count: number): string;
}

/**
 * The per-file checks (type, then size) and the post-level ones (one video alone, at most
 * `maxItems`), at `media[i]` and `media`. Browser-safe.
 */
export function checkMediaRules(
  media: readonly MediaInfo[],
  rules: MediaRuleSet,
): { errors: ValidationIssue[]; warnings: ValidationIssue[] } {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  for (const [index, file] of media.entries()) {
    const path = `media[${index}]`;
    const kind = file.kind === 'video' ? rules.video : rules.image;
    if (!kind.types.includes(file.contentType)) {
      errors.push({ code: 'media_type_unsupported', message: kind.unsupported(file.contentType), path });
    } else if (kind.maxBytes !== undefined && file.size > kind.maxBytes) {
      errors.push({ code: 'media_too_large', message: kind.tooLarge?.(file) ?? '', path });
    } else if (kind.minBytes !== undefined && file.size < kind.minBytes) {
      warnings.push({ code: 'media_too_small', message: kind.tooSmall?.(file) ?? '', path });
    }
  }
  const videos = media.filter((m) => m.kind === 'video');
  if (videos.length > 0 && media.length > 1) {
    errors.push({ code: 'media_mix_unsupported', message: rules.mixed, path: 'media' });
  } else if (media.length > rules.maxItems) {
    errors.push({ code: 'too_many_media', message: rules.tooMany(media.length), path: 'media' });
  }
  return { errors, warnings };
}
