import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { approvePost } from '#server/approvals/approve-post.ts';
import { rejectPost } from '#server/approvals/reject-post.ts';
import { requiredComment } from '#server/approvals/schema.ts';
import type { AppContext } from '#server/context.ts';
import type { ApprovalActor } from '#server/db/schema.ts';
import type { PostView } from '#server/posts/schema.ts';
import { parseScheduledAt } from '#server/posts/schema.ts';
import type { McpActor } from '../actor.ts';
import { McpPostId } from '../schemas.ts';
import { ok, tool } from './results.ts';

/** The assistant as an approval records it: acting for the member who granted it. */
export async function assistantActor(actor: McpActor): Promise<ApprovalActor> {
  return { type: 'assistant', id: actor.userId, name: await actor.clientName() };
}

/** The answer to a post that now waits for approval (REST answers 202 with the same post). */
export function submittedResult(ctx: AppContext, post: PostView): CallToolResult {
  const approvalUrl = `${ctx.config.appUrl}/posts/${post.id}`;
  const text = `Submitted for approval: post ${post.id} is pending_approval and nothing was published or scheduled yet. A member who may approve decides on ${ctx.config.appUrl}/approvals (or this link: ${approvalUrl}).`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { outcome: 'approval_required', status: 202, published: false, approvalUrl, post },
  };
}

/**
 * Approving and rejecting submissions (docs/workspaces.md#approvals), with the granting member's
 * role: editors and up, never a post that member wrote, never an assistant's own held post.
 */
export function registerApprovalTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;
  server.registerTool(
    'approve_post',
    {
      title: 'Approve a post waiting for approval',
      description:
        'Approves a pending_approval post another member submitted and performs what they asked: publish now, schedule (give scheduledAt if the requested time has passed) or queue. Only for members with the editor role or higher, never for their own posts.',
      inputSchema: {
        id: McpPostId,
        comment: z.string().max(5000).optional().describe('A note for the author'),
        scheduledAt: z
          .string()
          .optional()
          .describe(
            'A new time (ISO 8601 with offset) for a requested schedule; for a request to publish now, schedules it for then instead',
          ),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async ({ id, comment, scheduledAt }) => {
      const post = await approvePost(ctx, workspaceId, id, await assistantActor(actor), {
        comment: comment?.trim() || undefined,
        scheduledAt: scheduledAt ? parseScheduledAt(scheduledAt) : undefined,
      });
      return ok(post, `Approved: post ${post.id} is ${post.status}.`);
    }),
  );
  server.registerTool(
    'reject_post',
    {
      title: 'Send a post back with a comment',
      description:
        'Rejects a pending_approval post: it returns to draft with your comment for the author. Same roles as approve_post.',
      inputSchema: { id: McpPostId, comment: z.string().max(5000).describe('What the author should change') },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    tool(ctx, async ({ id, comment }) => {
      const post = await rejectPost(
        ctx,
        workspaceId,
        id,
        await assistantActor(actor),
        requiredComment({ comment }),
      );
      return ok(post, `Sent back: post ${post.id} is a draft again.`);
    }),
  );
}
