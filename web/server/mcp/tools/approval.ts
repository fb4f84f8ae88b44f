import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PostView } from '#server/posts/schema.ts';
import type { PublishIntent } from '../confirmation.ts';

/** The answer of publishing tools when the user did not confirm (submissions: ./approvals.ts). */

/** The plain answer when the user said no: nothing was published or scheduled. */
export function notConfirmed(
  outcome: 'declined' | 'cancelled',
  intent: PublishIntent,
  post?: PostView,
): CallToolResult {
  const verb = intent.kind === 'now' ? 'published' : 'scheduled';
  const why =
    outcome === 'declined'
      ? 'The user declined the confirmation.'
      : 'The user cancelled (dismissed) the confirmation.';
  const text = `${why} Nothing was ${verb}${post ? `; post ${post.id} is unchanged (${post.status})` : ' and no post was created'}. Do not retry unless the user asks you to.`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      outcome,
      published: false,
      scheduled: false,
      ...(post ? { post } : {}),
      message: text,
    },
  };
}
