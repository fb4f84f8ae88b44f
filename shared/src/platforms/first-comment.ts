import { z } from 'zod';
import type { OptionField } from './manifest.ts';

/**
 * `accountOptions[id].firstComment` (docs/composer-fields.md): the text posted right after the post,
 * as a comment (`Publisher.comment`) or as a reply where the platform's comments are posts. The
 * posting service sends it; a publisher only has to accept the option. Browser-safe.
 */
export function firstCommentOption(maxLength?: number) {
  const text = z.string().trim().min(1, 'a first comment cannot be empty');
  return (maxLength === undefined ? text : text.max(maxLength)).optional().meta({
    description: `Posted right after the post, as its first comment (or a reply where the platform's comments are posts)${
      maxLength === undefined ? '' : `; up to ${maxLength} characters`
    }.`,
  });
}

/** The composer's field for it, in the manifest of every platform whose `features.firstComment` is true. */
export const firstCommentField: OptionField = {
  name: 'firstComment',
  label: 'First comment',
  type: 'textarea',
  help: 'Posted right after the post.',
};
