import { z } from 'zod';
import type { MediaInfo } from '../media/media-file.ts';
import type { ValidationIssue } from '../schemas/results.ts';
import type { MediaRules, OptionField, TextRules } from './manifest.ts';

/**
 * The base of long-form platforms (blogs and newsletters: WordPress, Ghost, Dev.to, Medium,
 * Hashnode, Lemmy, Listmonk), documented in docs/platforms/README.md. Browser-safe: manifests use
 * it to count, validation and publishers to split a post the same way.
 *
 * A long-form post is a title and a Markdown body. The title is the account's `title` option when
 * set (and the whole message is the body); otherwise the message's first non-blank line (a
 * leading `#` heading mark dropped) and the body is the rest. Platforms that take HTML render the
 * body with `markdownToHtml` (`shared/src/text/markdown.ts`); the others send it as written.
 */

export interface LongFormParts {
  title: string;
  /** Markdown, without leading blank lines or trailing white space. */
  body: string;
  /** Whether the title came from the message (its first line) rather than the `title` option. */
  titleFromMessage: boolean;
}

/** Title and body of a long-form post (see the module comment). */
export function longFormParts(message: string, titleOption?: string): LongFormParts {
  const option = titleOption?.trim();
  if (option) return { title: option, body: tidyBody(message), titleFromMessage: false };
  const text = message.replace(/^(?:[ \t]*\r?\n)+/, '');
  const match = /\r?\n/.exec(text);
  const firstLine = match ? text.slice(0, match.index) : text;
  const rest = match ? text.slice(match.index + match[0].length) : '';
  return { title: headingText(firstLine), body: tidyBody(rest), titleFromMessage: true };
}

/** A Markdown ATX heading's text (`# Title #` → `Title`); other lines trimmed. */
function headingText(line: string): string {
  const heading = /^ {0,3}#{1,6}(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
  return (heading ? heading[1]! : line).trim();
}

function tidyBody(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
}

/** How a platform limits and counts its titles. */
export interface TitleRules {
  /** The platform's name, for messages. */
  platform: string;
  maxLength: number;
  /** What is counted, for messages and the counter ("characters"). */
  unit: string;
  count(title: string): number;
}

/**
 * The composer's counter for a long-form platform: the title (what these platforms limit),
 * counted exactly as `checkLongFormTitle` does.
 */
export function longFormTextRules(rules: TitleRules): TextRules {
  const unit = `title ${rules.unit}`;
  return {
    limit: rules.maxLength,
    unit,
    count({ message, options }) {
      const title = typeof options.title === 'string' ? options.title : undefined;
      return { used: rules.count(longFormParts(message, title).title), limit: rules.maxLength, unit };
    },
  };
}

/**
 * `title_required` / `title_too_long`, at the `title` option when it is set and at `message`
 * otherwise. `accountId` builds the option's path (`accountOptions.<id>.title`).
 */
export function checkLongFormTitle(
  parts: LongFormParts,
  rules: TitleRules,
  accountId: string,
): ValidationIssue[] {
  const path = parts.titleFromMessage ? 'message' : `accountOptions.${accountId}.title`;
  if (parts.title === '') {
    return [
      {
        code: 'title_required',
        message: `${rules.platform} needs a title: write it on the message's first line, or set the title option`,
        path,
      },
    ];
  }
  const used = rules.count(parts.title);
  if (used <= rules.maxLength) return [];
  return [
    {
      code: 'title_too_long',
      message: `${rules.platform} titles are limited to ${rules.maxLength} ${rules.unit}; this one has ${used}${
        parts.titleFromMessage
          ? ' (the first line of the message is the title: shorten it, or set the title option)'
          : ''
      }`,
      path,
    },
  ];
}

/** The `title` option of a long-form platform (zod), trimmed; an empty value means "use the first line". */
export function longFormTitleOption() {
  return z.string().optional().meta({
    description:
      "The post's title. Default: the message's first line (a leading # is dropped), and the rest of the message is the body.",
  });
}

/** The composer's field for it. */
export const longFormTitleField: OptionField = {
  name: 'title',
  label: 'Title',
  type: 'text',
  help: "Leave empty to use the message's first line as the title.",
};

/**
 * A list of names (tags, categories): an array of strings, or one comma-separated string as a
 * CLI or form sends it. Names are trimmed; empty ones and repeats (ignoring case) are dropped.
 */
export function nameListOption(description: string, limits: { maxItems?: number; maxLength: number }) {
  const list = z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',') : value),
    z
      .array(z.string().trim().max(limits.maxLength, `a name may be up to ${limits.maxLength} characters`))
      .transform((names) => uniqueNames(names)),
  );
  const limited =
    limits.maxItems === undefined
      ? list
      : list.refine((names) => names.length <= limits.maxItems!, {
          message: `at most ${limits.maxItems} names`,
        });
  return limited.optional().meta({ description });
}

function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of names) {
    const key = name.toLowerCase();
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/** Images only, the first one the post's cover (featured image) and the others in its body. */
export function longFormMediaRules(maxItems: number, cover: string): MediaRules {
  return {
    required: false,
    maxItems,
    kinds: ['image', 'gif'],
    summary: `Up to ${maxItems} images: the first is the ${cover}, the others follow the text`,
  };
}

/** Image types long-form platforms take (the ones every blog engine shows inline). */
export const longFormImageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** `media_type_unsupported` for anything but an image, `too_many_media` past `maxItems`. */
export function checkLongFormMedia(
  media: readonly MediaInfo[],
  platform: string,
  maxItems: number,
): ValidationIssue[] {
  const errors: ValidationIssue[] = [];
  for (const [index, file] of media.entries()) {
    if (!(longFormImageTypes as readonly string[]).includes(file.contentType)) {
      errors.push({
        code: 'media_type_unsupported',
        message: `${platform} posts take images (JPEG, PNG, GIF, WebP), not ${file.contentType}`,
        path: `media[${index}]`,
      });
    }
  }
  if (media.length > maxItems) {
    errors.push({
      code: 'too_many_media',
      message: `${platform} posts take up to ${maxItems} images here; this one has ${media.length}`,
      path: 'media',
    });
  }
  return errors;
}

/**
 * The address a site's API hangs off, from the URL a user typed: origin plus any subdirectory, no
 * trailing slash, query or fragment (`https://example.com/blog/` → `https://example.com/blog`).
 */
export function siteRoot(siteUrl: string): string {
  const url = new URL(siteUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
