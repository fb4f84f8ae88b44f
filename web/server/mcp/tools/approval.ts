import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '#server/context.ts';
import type { PostView } from '#server/posts/schema.ts';
import type { PublishIntent } from '../confirmation.ts';

/** The answers of publishing tools when the user did not confirm, or must approve on the web page. */

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

function approvalLink(ctx: AppContext, postId: string): string {
  return `${ctx.config.appUrl}/posts/${postId}?approve=1`;
}

export function awaitingApproval(ctx: AppContext, intent: PublishIntent, post: PostView): CallToolResult {
  const approvalUrl = approvalLink(ctx, post.id);
  const what = intent.kind === 'now' ? 'publish it' : 'schedule it';
  const text = `The user asks assistants to get their approval first, and this client cannot ask them directly. The post was saved as ${post.status === 'draft' ? 'a draft' : `is (${post.status})`}: nothing was ${intent.kind === 'now' ? 'published' : 'scheduled'}. Give the user this link to review and ${what}: ${approvalUrl}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { outcome: 'approval_required', published: false, approvalUrl, post },
  };
}
