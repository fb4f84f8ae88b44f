import { maxTitleLength } from './limits.ts';
import type { LemmyOptions } from './options.ts';

export interface LemmyPostText {
  title: string;
  body: string;
}

/**
 * The `title` option and the whole message as body; else the first line as title and the rest as
 * body. A first line over 200 characters is cut (at a word where it can, with "…") and the whole
 * message becomes the body, so nothing of it is lost. Browser-safe.
 */
export function splitPost(message: string, options: Pick<LemmyOptions, 'title'>): LemmyPostText {
  const title = options.title?.trim();
  if (title) return { title, body: message.trim() };
  const text = message.trim();
  const end = text.indexOf('\n');
  const firstLine = (end < 0 ? text : text.slice(0, end)).trim();
  const rest = end < 0 ? '' : text.slice(end + 1).trim();
  const chars = [...firstLine];
  if (chars.length <= maxTitleLength) return { title: firstLine, body: rest };
  const cut = chars.slice(0, maxTitleLength - 1).join('');
  const atWord = cut.replace(/\s+\S*$/u, '');
  return { title: `${(atWord.length >= maxTitleLength / 2 ? atWord : cut).trimEnd()}…`, body: text };
}
