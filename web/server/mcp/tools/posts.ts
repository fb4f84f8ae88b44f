import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import {
  normalizeMedia,
  normalizeOverrides,
  normalizeThread,
  parsePostRequest,
  parseValidationRequest,
} from '@postwave/shared';
import { z } from 'zod';
import { editPost } from '#server/approvals/edit-post.ts';
import { decidePosting } from '#server/approvals/policy.ts';
import { submitNewPost } from '#server/approvals/submit-post.ts';
import type { AppContext } from '#server/context.ts';
import { postStatuses } from '#server/db/schema.ts';
import { assertMayEditPost } from '#server/posts/authorize.ts';
import { createPost } from '#server/posts/create-post.ts';
import { deletePost } from '#server/posts/delete-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { assertFuture } from '#server/posts/guards.ts';
import type { RecordedAction } from '#server/posts/history.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import { listPosts } from '#server/posts/list-posts.ts';
import { assertPublishable, preparePost } from '#server/posts/prepare.ts';
import { parseRecycle } from '#server/posts/recycle-schema.ts';
import { parseScheduledAt } from '#server/posts/schema.ts';
import { withTemplate } from '#server/templates/apply-template.ts';
import type { McpActor } from '../actor.ts';
import { type Decision, decide, type PublishIntent } from '../confirmation.ts';
import {
  McpAccountIds,
  McpAccountOptions,
  McpMediaList,
  McpMessage,
  McpOverrides,
  McpPostId,
  McpPostingMode,
  McpRecycle,
  McpScheduledAt,
  McpThread,
} from '../schemas.ts';
import { destructiveIdempotent, readOnly } from './annotations.ts';
import { notConfirmed } from './approval.ts';
import { assistantActor, submittedResult } from './approvals.ts';
import { ok, tool } from './results.ts';

/**
 * Post tools over the same operations as /api/v1/posts: validate, create (publishing and
 * scheduling ask the user to confirm first), list, read, edit and delete.
 */
export function registerPostTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;
  const log = (postId: string, action: RecordedAction, detail: Record<string, unknown> = {}) =>
    actor.record(postId, action, detail);
  const ask = (intent: PublishIntent, requestId: RequestId): Promise<Decision> =>
    decide(ctx, server, workspaceId, intent, requestId);

  server.registerTool(
    'validate_post',
    {
      title: 'Validate a post',
      description:
        'Checks a post against every target account (text length as each platform counts it, media, options) and returns per-account errors and warnings. Publishes nothing. Call it before create_post.',
      inputSchema: {
        message: McpMessage,
        accountIds: McpAccountIds,
        media: McpMediaList.optional(),
        accountOptions: McpAccountOptions.optional(),
        overrides: McpOverrides.optional(),
        thread: McpThread.optional(),
      },
      annotations: readOnly,
    },
    tool(ctx, async (args) => {
      const parsed = parseValidationRequest(args);
      const v = parsed.invalid ?? (await preparePost(ctx, workspaceId, parsed.post)).validation;
      return ok(
        v,
        v.valid ? 'The post is valid for every account.' : 'The post is not valid; see errors and results.',
      );
    }),
  );

  server.registerTool(
    'create_post',
    {
      title: 'Create a post',
      description:
        'Publishes now (postingMode "now"), schedules ("schedule" with scheduledAt), queues ("queue": the next free slot of every account\'s queue, see get_queue) or saves a draft ("draft"). Publishing and scheduling ask the user to confirm first when the client supports it; if the user declines, nothing is published. When the workspace requires approval (for the granting member\'s role, or for assistants and this client cannot ask), the post is stored as pending_approval and an approvalUrl is returned: nothing is published until a member approves.',
      inputSchema: {
        templateId: z
          .string()
          .max(100)
          .optional()
          .describe(
            "Start from this template (list_templates): every field left out here is the template's; a field given replaces the template's whole field",
          ),
        message: McpMessage.optional().describe('The text of the post (required unless templateId gives it)'),
        accountIds: McpAccountIds.optional().describe(
          'Account ids from list_accounts (required unless templateId gives them)',
        ),
        postingMode: McpPostingMode,
        media: McpMediaList.optional(),
        scheduledAt: McpScheduledAt.optional(),
        accountOptions: McpAccountOptions.optional(),
        overrides: McpOverrides.optional(),
        thread: McpThread.optional(),
        recycle: McpRecycle,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async (args, requestId) => {
      const request = parsePostRequest(await withTemplate(ctx, workspaceId, args));
      const recycle = parseRecycle(args) ?? null;
      if (request.postingMode === 'draft') {
        const post = await createPost(
          ctx,
          workspaceId,
          request,
          actor.userId,
          await actor.auditActor(),
          recycle,
        );
        await log(post.id, 'created_draft');
        return ok(post, `Draft ${post.id} saved.`);
      }
      const mode = request.postingMode;
      const submit = async (reason: 'approvals' | 'assistants') => {
        const post = await submitNewPost(
          ctx,
          workspaceId,
          { ...request, postingMode: mode },
          await assistantActor(actor),
          reason,
          recycle,
        );
        await log(post.id, 'approval_requested', {
          requestedMode: mode,
          ...(request.scheduledAt ? { scheduledAt: request.scheduledAt.toISOString() } : {}),
        });
        return submittedResult(ctx, post);
      };
      // The granting member's role decides, as for their own requests (docs/workspaces.md#approvals).
      if ((await decidePosting(ctx, { workspaceId, role: await actor.role() })) === 'submit')
        return submit('approvals');
      const intent: PublishIntent = {
        kind: request.postingMode === 'now' ? 'now' : request.postingMode === 'queue' ? 'queue' : 'schedule',
        message: request.message,
        accountIds: request.accountIds,
        scheduledAt: request.scheduledAt,
        mediaCount: request.media.length,
      };
      if (intent.kind === 'schedule') assertFuture(request.scheduledAt);
      await assertPublishable(ctx, workspaceId, {
        message: request.message,
        accountIds: request.accountIds,
        media: request.media,
        accountOptions: request.accountOptions,
        overrides: request.overrides ?? {},
        thread: request.thread ?? [],
      });
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled')
        return notConfirmed(decision.outcome, intent);
      if (decision.outcome === 'approval') return submit('assistants');
      const post = await createPost(
        ctx,
        workspaceId,
        request,
        actor.userId,
        await actor.auditActor(),
        recycle,
      );
      await log(post.id, intent.kind === 'now' ? 'published' : 'scheduled', {
        confirmedBy: decision.confirmedBy,
        status: post.status,
        ...(post.scheduledAt ? { scheduledAt: post.scheduledAt } : {}),
      });
      return ok(post, `Post ${post.id} is ${post.status}.`);
    }),
  );

  server.registerTool(
    'list_posts',
    {
      title: 'List posts',
      description:
        'Posts newest first, optionally by status; pass nextCursor back as cursor for the next page.',
      inputSchema: {
        status: z.enum(postStatuses).optional().describe('Only posts in this status'),
        limit: z.number().int().min(1).max(200).optional().describe('Page size (default 50)'),
        cursor: z.string().max(500).optional().describe('nextCursor from the previous page'),
      },
      annotations: readOnly,
    },
    tool(ctx, async (args) => {
      const page = await listPosts(ctx, workspaceId, {
        status: args.status,
        limit: args.limit ?? 50,
        cursor: args.cursor,
      });
      return ok(page, `${page.posts.length} post(s)${page.nextCursor ? '; more available' : ''}.`);
    }),
  );

  server.registerTool(
    'get_post',
    {
      title: 'Get a post',
      description:
        'One post with its per-account results (platform post ids and URLs, errors with a hint in plain words), its timeline (`events`: created, scheduled, each attempt with its outcome, posted or failed) and staging (a scheduled video uploaded to the platform ahead of its time: staging, staged or stage_failed per account). Also readable as the resource postwave://posts/{id}.',
      inputSchema: { id: McpPostId },
      annotations: readOnly,
    },
    tool(ctx, async ({ id }) => {
      const post = await getPost(ctx, workspaceId, id);
      const { events } = await listPostTimeline(ctx, workspaceId, post.id);
      return ok({ ...post, events }, `Post ${post.id} is ${post.status}.`);
    }),
  );

  server.registerTool(
    'update_post',
    {
      title: 'Update a post',
      description:
        'Changes a draft, scheduled or failed post (a posted one cannot change). Only the fields given change; media replaces the whole list (an empty list removes it). A scheduled post stays scheduled and must remain valid.',
      inputSchema: {
        id: McpPostId,
        message: McpMessage.optional(),
        accountIds: McpAccountIds.optional(),
        media: McpMediaList.optional(),
        accountOptions: McpAccountOptions.optional(),
        overrides: McpOverrides.optional().describe('Replaces every override ({} removes them)'),
        thread: McpThread.optional().describe('Replaces the thread ([] removes it)'),
        scheduledAt: McpScheduledAt.optional(),
        recycle: McpRecycle,
      },
      annotations: destructiveIdempotent,
    },
    tool(ctx, async ({ id, scheduledAt, media, overrides, thread, recycle: given, ...rest }) => {
      const recycle = given === undefined ? undefined : parseRecycle({ recycle: given });
      const role = await actor.role();
      await assertMayEditPost(ctx, { workspaceId, userId: actor.userId, role }, id);
      const post = await editPost(
        ctx,
        { workspaceId, role },
        id,
        {
          ...rest,
          ...(overrides ? { overrides: normalizeOverrides(overrides) } : {}),
          ...(thread ? { thread: normalizeThread(thread) } : {}),
          media: media === undefined ? undefined : normalizeMedia(media),
          scheduledAt: scheduledAt === undefined ? undefined : parseScheduledAt(scheduledAt),
          recycle,
        },
        { audit: await actor.auditActor(), approval: await assistantActor(actor) },
      );
      await log(post.id, 'updated', {
        fields: Object.keys({
          ...rest,
          ...(media ? { media } : {}),
          ...(overrides ? { overrides } : {}),
          ...(thread ? { thread } : {}),
          ...(scheduledAt ? { scheduledAt } : {}),
          ...(recycle !== undefined ? { recycle } : {}),
        }),
      });
      return ok(post, `Post ${post.id} updated (${post.status}).`);
    }),
  );

  server.registerTool(
    'delete_post',
    {
      title: 'Delete a post',
      description: 'Deletes a draft, scheduled or failed post for good (a posted post cannot be deleted).',
      inputSchema: { id: McpPostId },
      annotations: destructiveIdempotent,
    },
    tool(ctx, async ({ id }) => {
      await deletePost(ctx, workspaceId, id, await actor.auditActor());
      return ok({ deleted: id }, `Post ${id} deleted.`);
    }),
  );
}
