import { longFormParts } from '../long-form.ts';
import type { LemmyOptions } from './options.ts';

export interface LemmyPostText {
  title: string;
  body: string;
}

/**
 * The long-form split (docs/platforms/README.md#long-form-platforms): the `title` option and the
 * whole message as body; else the first line as title and the rest as body. A title over 200
 * characters is refused by validation (`title_too_long`), never cut. Browser-safe.
 */
export function splitPost(message: string, options: Pick<LemmyOptions, 'title'>): LemmyPostText {
  const { title, body } = longFormParts(message, options.title);
  return { title, body };
}
