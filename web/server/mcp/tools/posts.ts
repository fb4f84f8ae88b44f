import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import {
  isPlatformError,
  normalizeMedia,
  normalizeOverrides,
  normalizeThread,
  normalizeValidationRequest,
  PresignRequest,
  ProblemError,
  parsePostRequest,
  ValidationRequest,
} from '@postwave/shared';
import { z } from 'zod';
import { listAccounts } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import { isInvalidInputError } from '#server/db/errors.ts';
import { postStatuses } from '#server/db/schema.ts';
import { validationFailed } from '#server/http/problems.ts';
import { uploadMediaFromUrl } from '#server/media/from-url.ts';
import { presignUpload } from '#server/media/service.ts';
import type { PostEventAction } from '#server/posts/history.ts';
import { preparePost, validationIssues } from '#server/posts/publishing.ts';
import type { PostView } from '#server/posts/schema.ts';
import { parseScheduledAt, toPostAction } from '#server/posts/schema.ts';
import { actOnPost, createPost, deletePost, getPost, listPosts, updatePost } from '#server/posts/service.ts';
import type { McpActor } from './actor.ts';
import { type Decision, decide, type PublishIntent } from './confirmation.ts';
import { registerFeedTools } from './feed-tools.ts';
import { platformRules } from './platform-rules.ts';
import { registerQueueTools } from './queue-tools.ts';
import {
  McpAccountIds,
  McpAccountOptions,
  McpMediaList,
  McpMessage,
  McpOverrides,
  McpPostId,
  McpPostingMode,
  McpScheduledAt,
  McpThread,
} from './schemas.ts';

export function ok(value: unknown, summary: string): CallToolResult {
  const structured = (
    value && typeof value === 'object' && !Array.isArray(value) ? value : { value }
  ) as Record<string, unknown>;
  return {
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(value, null, 2)}` }],
    structuredContent: structured,
  };
}

/** Failures are tool errors carrying the REST API's problem (status, code, per-account errors). */
function failure(error: unknown, ctx: AppContext): CallToolResult {
  let body: Record<string, unknown>;
  if (error instanceof ProblemError) body = { ...error.problem };
  else if (isPlatformError(error)) body = { status: 422, code: error.code, detail: error.message };
  else if (isInvalidInputError(error))
    body = {
      status: 400,
      code: 'invalid_request',
      detail: 'The request contains a value that cannot be stored',
    };
  else {
    ctx.logger.error({ err: error }, 'unhandled error in MCP tool');
    body = { status: 500, code: 'internal', detail: 'Something went wrong on our side' };
  }
  const errors = Array.isArray(body.errors)
    ? (body.errors as { accountId?: string; path?: string; code: string; message: string }[])
        .map(
          (e) =>
            `\n- ${e.accountId ?? e.path ?? ''}${e.accountId || e.path ? ': ' : ''}${e.message} (${e.code})`,
        )
        .join('')
    : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${body.code}: ${body.detail}${errors}` }],
    structuredContent: { error: body },
  };
}

export function tool<T>(ctx: AppContext, run: (args: T, requestId: RequestId) => Promise<CallToolResult>) {
  return async (args: T, extra: { requestId: RequestId }): Promise<CallToolResult> => {
    try {
      return await run(args, extra.requestId);
    } catch (error) {
      return failure(error, ctx);
    }
  };
}

/** The plain answer when the user said no: nothing was published or scheduled. */
function notConfirmed(
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

function awaitingApproval(ctx: AppContext, intent: PublishIntent, post: PostView): CallToolResult {
  const approvalUrl = approvalLink(ctx, post.id);
  const what = intent.kind === 'now' ? 'publish it' : 'schedule it';
  const text = `The user asks assistants to get their approval first, and this client cannot ask them directly. The post was saved as ${post.status === 'draft' ? 'a draft' : `is (${post.status})`}: nothing was ${intent.kind === 'now' ? 'published' : 'scheduled'}. Give the user this link to review and ${what}: ${approvalUrl}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { outcome: 'approval_required', published: false, approvalUrl, post },
  };
}

/** Rejects an invalid post before anyone is asked to confirm it (same 422 as publishing would give). */
async function assertPublishable(
  ctx: AppContext,
  userId: string,
  content: Parameters<typeof preparePost>[2],
): Promise<void> {
  const prepared = await preparePost(ctx, userId, content);
  if (!prepared.targets)
    throw validationFailed(
      'The post is not valid for some of its accounts',
      validationIssues(prepared.validation),
    );
}

/** The same refusals as `POST /api/v1/posts`, before anyone is asked to confirm. */
function futureTime(value: string | Date | undefined): Date {
  if (value === undefined)
    throw validationFailed('scheduledAt is required to schedule a post', [
      { path: 'scheduledAt', code: 'required', message: 'Give an ISO 8601 date-time with an offset' },
    ]);
  const when = typeof value === 'string' ? parseScheduledAt(value) : value;
  if (when.getTime() <= Date.now())
    throw validationFailed(`scheduledAt ${when.toISOString()} is in the past; choose a time in the future`, [
      { path: 'scheduledAt', code: 'scheduled_in_past', message: 'Must be in the future' },
    ]);
  return when;
}

export const readOnly = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Removes something of the user's for good (a post, a feed, a webhook); repeating it changes nothing more. */
export const destructiveIdempotent = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** Tools act as the token's user and call the same services as /api/v1; publishing ones confirm first. */
export function registerTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { userId } = actor;
  const log = (postId: string, action: PostEventAction, detail: Record<string, unknown> = {}) =>
    actor.record(postId, action, detail);
  const ask = (intent: PublishIntent, requestId: RequestId): Promise<Decision> =>
    decide(ctx, server, userId, intent, requestId);

  server.registerTool(
    'list_accounts',
    {
      title: 'List accounts',
      description:
        'The connected social accounts: id (use it in accountIds), platform, label, username, status and health (ok, expiring, needs_reconnect, unreachable; healthReason says why). Posts to an account whose health is needs_reconnect fail until the user reconnects it in the web app: tell them.',
      inputSchema: {},
      annotations: readOnly,
    },
    tool(ctx, async () => {
      const accounts = await listAccounts(ctx, userId);
      const attention = accounts.filter((a) => a.health !== 'ok').length;
      return ok(
        { accounts },
        `${accounts.length} connected account(s).${attention ? ` ${attention} need(s) attention (see health).` : ''}`,
      );
    }),
  );

  server.registerTool(
    'get_platform_rules',
    {
      title: 'Platform rules',
      description:
        'For each connected account (or the ones given): the platform, how it counts text and its limit, which media it takes, and the per-post options it accepts in accountOptions (where the platform describes them). Read it before writing a post; validate_post is the authority and checks the result.',
      inputSchema: { accountIds: McpAccountIds.optional() },
      annotations: readOnly,
    },
    tool(ctx, async ({ accountIds }) => {
      const accounts = await listAccounts(ctx, userId);
      const chosen = accountIds ? accounts.filter((a) => accountIds.includes(a.id)) : accounts;
      const rules = platformRules(ctx.publishers, chosen);
      return ok({ accounts: rules }, `Rules for ${rules.length} account(s).`);
    }),
  );

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
      const prepared = await preparePost(
        ctx,
        userId,
        normalizeValidationRequest(ValidationRequest.parse(args)),
      );
      const v = prepared.validation;
      return ok(v, v.valid ? 'The post is valid for every account.' : 'The post is not valid; see results.');
    }),
  );

  server.registerTool(
    'create_post',
    {
      title: 'Create a post',
      description:
        'Publishes now (postingMode "now"), schedules ("schedule" with scheduledAt), queues ("queue": the next free slot of every account\'s queue, see get_queue) or saves a draft ("draft"). Publishing and scheduling ask the user to confirm first when the client supports it; if the user declines, nothing is published. When the user requires approval and this client cannot ask, the post is saved as a draft and an approvalUrl is returned for the user.',
      inputSchema: {
        message: McpMessage,
        accountIds: McpAccountIds,
        postingMode: McpPostingMode,
        media: McpMediaList.optional(),
        scheduledAt: McpScheduledAt.optional(),
        accountOptions: McpAccountOptions.optional(),
        overrides: McpOverrides.optional(),
        thread: McpThread.optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async (args, requestId) => {
      const request = parsePostRequest(args);
      if (request.postingMode === 'draft') {
        const post = await createPost(ctx, userId, request);
        await log(post.id, 'created_draft');
        return ok(post, `Draft ${post.id} saved.`);
      }
      const intent: PublishIntent = {
        kind: request.postingMode === 'now' ? 'now' : request.postingMode === 'queue' ? 'queue' : 'schedule',
        message: request.message,
        accountIds: request.accountIds,
        scheduledAt: request.scheduledAt,
        mediaCount: request.media.length,
      };
      if (intent.kind === 'schedule') futureTime(request.scheduledAt);
      await assertPublishable(ctx, userId, {
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
      if (decision.outcome === 'approval') {
        const draft = await createPost(ctx, userId, { ...request, postingMode: 'draft' });
        await log(draft.id, 'approval_requested', {
          requestedMode: request.postingMode,
          ...(request.scheduledAt ? { scheduledAt: request.scheduledAt.toISOString() } : {}),
        });
        return awaitingApproval(ctx, intent, draft);
      }
      const post = await createPost(ctx, userId, request);
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
      const page = await listPosts(ctx, userId, {
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
        'One post with its per-account results (platform post ids and URLs, errors) and staging (a scheduled video uploaded to the platform ahead of its time: staging, staged or stage_failed per account). Also readable as the resource postwave://posts/{id}.',
      inputSchema: { id: McpPostId },
      annotations: readOnly,
    },
    tool(ctx, async ({ id }) => {
      const post = await getPost(ctx, userId, id);
      return ok(post, `Post ${post.id} is ${post.status}.`);
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
      },
      annotations: destructiveIdempotent,
    },
    tool(ctx, async ({ id, scheduledAt, media, overrides, thread, ...rest }) => {
      const post = await updatePost(ctx, userId, id, {
        ...rest,
        ...(overrides ? { overrides: normalizeOverrides(overrides) } : {}),
        ...(thread ? { thread: normalizeThread(thread) } : {}),
        media: media === undefined ? undefined : normalizeMedia(media),
        scheduledAt: scheduledAt === undefined ? undefined : parseScheduledAt(scheduledAt),
      });
      await log(post.id, 'updated', {
        fields: Object.keys({
          ...rest,
          ...(media ? { media } : {}),
          ...(overrides ? { overrides } : {}),
          ...(thread ? { thread } : {}),
          ...(scheduledAt ? { scheduledAt } : {}),
        }),
      });
      return ok(post, `Post ${post.id} updated (${post.status}).`);
    }),
  );

  server.registerTool(
    'publish_post',
    {
      title: 'Publish a post now',
      description:
        'Publishes a draft, scheduled or failed post now (a failed post retries only the targets that did not post; a target is never posted twice). Asks the user to confirm first when the client supports it.',
      inputSchema: { id: McpPostId },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    tool(ctx, async ({ id }, requestId) => {
      const current = await getPost(ctx, userId, id);
      // A posted post: the service refuses it (409) before anything happens, as REST does.
      if (current.status === 'posted') await actOnPost(ctx, userId, id, { postingMode: 'now' });
      await assertPublishable(ctx, userId, current);
      const intent: PublishIntent = {
        kind: 'now',
        message: current.message,
        accountIds: current.accountIds,
        mediaCount: current.media.length,
      };
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled') {
        await log(id, decision.outcome === 'declined' ? 'confirmation_declined' : 'confirmation_cancelled', {
          requestedMode: 'now',
        });
        return notConfirmed(decision.outcome, intent, current);
      }
      if (decision.outcome === 'approval') {
        await log(id, 'approval_requested', { requestedMode: 'now' });
        return awaitingApproval(ctx, intent, current);
      }
      const post = await actOnPost(ctx, userId, id, toPostAction({ postingMode: 'now' }));
      await log(post.id, 'published', { confirmedBy: decision.confirmedBy, status: post.status });
      return ok(post, `Post ${post.id} is ${post.status}.`);
    }),
  );

  server.registerTool(
    'schedule_post',
    {
      title: 'Schedule a post',
      description:
        'Schedules a draft or failed post, or moves a scheduled one, to scheduledAt. Asks the user to confirm first when the client supports it.',
      inputSchema: { id: McpPostId, scheduledAt: McpScheduledAt },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    tool(ctx, async ({ id, scheduledAt }, requestId) => {
      const current = await getPost(ctx, userId, id);
      const when = futureTime(scheduledAt);
      // A posted post: the service refuses it (409) before anything happens, as REST does.
      if (current.status === 'posted')
        await actOnPost(ctx, userId, id, { postingMode: 'schedule', scheduledAt: when });
      await assertPublishable(ctx, userId, current);
      const intent: PublishIntent = {
        kind: 'schedule',
        message: current.message,
        accountIds: current.accountIds,
        scheduledAt: when,
        mediaCount: current.media.length,
      };
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled') {
        await log(id, decision.outcome === 'declined' ? 'confirmation_declined' : 'confirmation_cancelled', {
          requestedMode: 'schedule',
          scheduledAt: when.toISOString(),
        });
        return notConfirmed(decision.outcome, intent, current);
      }
      if (decision.outcome === 'approval') {
        // A draft keeps the proposed time, so approving it on the page is one click.
        const post =
          current.status === 'draft' ? await updatePost(ctx, userId, id, { scheduledAt: when }) : current;
        await log(id, 'approval_requested', { requestedMode: 'schedule', scheduledAt: when.toISOString() });
        return awaitingApproval(ctx, intent, post);
      }
      const post = await actOnPost(ctx, userId, id, { postingMode: 'schedule', scheduledAt: when });
      await log(post.id, 'scheduled', { confirmedBy: decision.confirmedBy, scheduledAt: post.scheduledAt });
      return ok(post, `Post ${post.id} is scheduled for ${post.scheduledAt}.`);
    }),
  );

  server.registerTool(
    'move_post_to_draft',
    {
      title: 'Move a post back to drafts',
      description:
        'Unschedules a scheduled post (or turns a failed one into a draft) so nothing is published until it is scheduled or published again.',
      inputSchema: { id: McpPostId },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    tool(ctx, async ({ id }) => {
      const post = await actOnPost(ctx, userId, id, { postingMode: 'draft' });
      await log(post.id, 'moved_to_draft');
      return ok(post, `Post ${post.id} is now a draft.`);
    }),
  );

  server.registerTool(
    'resolve_unknown_targets',
    {
      title: 'Resolve targets whose outcome is unknown',
      description:
        'A target is `unknown` when publishing was interrupted on a platform that can neither dedupe a resend nor be checked. After the user checked the account: `mark_posted` records it as posted; `post_again` sends it again now (it appears twice if the interrupted send did arrive; asks the user to confirm first when the client supports it). Without accountIds, every unknown target of the post.',
      inputSchema: {
        id: McpPostId,
        resolution: z.enum(['mark_posted', 'post_again']),
        accountIds: z.array(z.string()).max(100).optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async ({ id, resolution, accountIds }, requestId) => {
      const action = { resolveUnknown: resolution, accountIds } as const;
      if (resolution === 'mark_posted') {
        const post = await actOnPost(ctx, userId, id, action);
        return ok(post, `Post ${post.id} is ${post.status}.`);
      }
      const current = await getPost(ctx, userId, id);
      const targets = current.results
        .filter((r) => r.status === 'unknown' && (!accountIds || accountIds.includes(r.accountId)))
        .map((r) => r.accountId);
      // Nothing to resolve: the service answers 409 before anyone is asked.
      if (targets.length === 0) await actOnPost(ctx, userId, id, action);
      const intent: PublishIntent = {
        kind: 'now',
        message: current.message,
        accountIds: targets,
        mediaCount: current.media.length,
      };
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled') {
        await log(id, decision.outcome === 'declined' ? 'confirmation_declined' : 'confirmation_cancelled', {
          requestedMode: 'post_again',
        });
        return notConfirmed(decision.outcome, intent, current);
      }
      if (decision.outcome === 'approval') {
        const text = `The user asks assistants to get their approval first, and this client cannot ask them directly. Nothing was sent; the user can choose "Post again" on ${ctx.config.appUrl}/posts/${id}`;
        return {
          content: [{ type: 'text', text }],
          structuredContent: { outcome: 'approval_required', published: false, post: current },
        };
      }
      const post = await actOnPost(ctx, userId, id, action);
      await log(post.id, 'published', {
        confirmedBy: decision.confirmedBy,
        status: post.status,
        postAgain: targets,
      });
      return ok(post, `Post ${post.id} is ${post.status}.`);
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
      await deletePost(ctx, userId, id);
      return ok({ deleted: id }, `Post ${id} deleted.`);
    }),
  );

  server.registerTool(
    'upload_media_from_url',
    {
      title: 'Add media from a URL',
      description:
        'Fetches a public https URL (image, video or PDF) into Postwave storage and returns the media object to attach to a post (in media). Private and loopback addresses are refused.',
      inputSchema: {
        url: z.string().max(4000).describe('A public https URL'),
        filename: z
          .string()
          .max(200)
          .optional()
          .describe('File name to store it under (default: from the URL)'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async (args) => {
      const media = await uploadMediaFromUrl(ctx, userId, args);
      return ok({ media }, `Stored ${media.filename} (${media.contentType}, ${media.size} bytes).`);
    }),
  );

  server.registerTool(
    'presign_upload',
    {
      title: 'Presign an upload',
      description:
        'A URL to PUT exactly `size` bytes with the returned headers within 15 minutes; then attach the returned media object.',
      inputSchema: {
        filename: PresignRequest.shape.filename.describe('The file name, e.g. photo.jpg'),
        contentType: PresignRequest.shape.contentType.describe('The media type, e.g. image/jpeg'),
        size: PresignRequest.shape.size.describe('The exact size in bytes'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    tool(ctx, async (args) => {
      const presigned = await presignUpload(ctx, userId, args);
      return ok(presigned, `PUT the file to uploadUrl before ${presigned.expiresAt}.`);
    }),
  );

  registerFeedTools(server, ctx, userId);
  registerQueueTools(server, ctx, actor);
}
