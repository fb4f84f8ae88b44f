import type { LemmyOptions } from './options.ts';

export interface LemmyPostText {
  title: string;
  body: string;
}

/** The `title` option and the whole message as body; else the first line as title and the rest as body. Browser-safe. */
export function splitPost(message: string, options: Pick<LemmyOptions, 'title'>): LemmyPostText {
  const title = options.title?.trim();
  if (title) return { title, body: message.trim() };
  const text = message.trim();
  const end = text.indexOf('\n');
  if (end < 0) return { title: text, body: '' };
  return { title: text.slice(0, end).trim(), body: text.slice(end + 1).trim() };
}
