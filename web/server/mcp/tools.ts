import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  AccountId,
  AccountOptions,
  isPlatformError,
  MediaReference,
  normalizeMedia,
  PostingMode,
  PresignRequest,
  ProblemError,
  parsePostRequest,
} from '@postwave/shared';
import { z } from 'zod';
import { listAccounts } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import { isInvalidInputError } from '#server/db/errors.ts';
import { postStatuses } from '#server/db/schema.ts';
import { uploadMediaFromUrl } from '#server/media/from-url.ts';
import { presignUpload } from '#server/media/service.ts';
import { preparePost } from '#server/posts/publishing.ts';
import { PostPatchRequest, toPostAction, toPostPatch } from '#server/posts/schema.ts';
import { actOnPost, createPost, deletePost, getPost, listPosts, updatePost } from '#server/posts/service.ts';

const Media = z
  .union([MediaReference, z.array(MediaReference).max(50)])
  .optional()
  .describe('Media objects from upload_media_from_url or presign_upload');
const PostId = z.string().max(100).describe('The post id');

function ok(value: unknown, summary: string): CallToolResult {
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

function tool<T>(ctx: AppContext, run: (args: T) => Promise<CallToolResult>) {
  return async (args: T): Promise<CallToolResult> => {
    try {
      return await run(args);
    } catch (error) {
      return failure(error, ctx);
    }
  };
}

/** An MCP server whose tools all act as `userId` and call the same services as /api/v1. */
export function createMcpServer(ctx: AppContext, userId: string): McpServer {
  const server = new McpServer(
    { name: 'postwave', title: 'Postwave', version: '1.0.0' },
    {
      instructions:
        "Postwave publishes a message, optionally with media, to the user's connected social accounts. " +
        'Call list_accounts for account ids, add media with upload_media_from_url or presign_upload, ' +
        'check with validate_post, then create_post with postingMode now, schedule (with scheduledAt) or draft.',
    },
  );

  server.registerTool(
    'list_accounts',
    {
      title: 'List accounts',
      description: 'The connected social accounts and their ids.',
      annotations: { readOnlyHint: true },
    },
    tool(ctx, async () => {
      const accounts = await listAccounts(ctx, userId);
      return ok({ accounts }, `${accounts.length} connected account(s).`);
    }),
  );

  server.registerTool(
    'validate_post',
    {
      title: 'Validate a post',
      description: 'Checks a post against every target account (length, media, options). Publishes nothing.',
      inputSchema: {
        message: z.string().max(100_000),
        accountIds: z.array(AccountId).min(1).max(100),
        media: Media,
        accountOptions: AccountOptions.optional(),
      },
      annotations: { readOnlyHint: true },
    },
    tool(ctx, async (args) => {
      const prepared = await preparePost(ctx, userId, {
        message: args.message,
        accountIds: [...new Set(args.accountIds)],
        media: normalizeMedia(args.media),
        accountOptions: args.accountOptions ?? {},
      });
      const v = prepared.validation;
      return ok(v, v.valid ? 'The post is valid for every account.' : 'The post is not valid; see results.');
    }),
  );

  server.registerTool(
    'create_post',
    {
      title: 'Create a post',
      description:
        'Publishes now (postingMode "now"), schedules ("schedule" with scheduledAt, ISO 8601 with offset) or saves a draft ("draft").',
      inputSchema: {
        message: z.string().max(100_000),
        accountIds: z.array(AccountId).min(1).max(100),
        postingMode: PostingMode,
        media: Media,
        scheduledAt: z.string().optional().describe('ISO 8601 with offset, e.g. 2026-12-01T09:30:00+01:00'),
        accountOptions: AccountOptions.optional(),
      },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    tool(ctx, async (args) => {
      const post = await createPost(ctx, userId, parsePostRequest(args));
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
        status: z.enum(postStatuses).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        cursor: z.string().max(500).optional(),
      },
      annotations: { readOnlyHint: true },
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

  /** A tool that acts on one post, named by its id. */
  const postTool = (
    name: string,
    about: { title: string; description: string; annotations: ToolAnnotations },
    run: (id: string) => Promise<CallToolResult>,
  ) =>
    server.registerTool(
      name,
      { ...about, inputSchema: { id: PostId } },
      tool(ctx, ({ id }) => run(id)),
    );

  postTool(
    'get_post',
    {
      title: 'Get a post',
      description: 'One post with its per-account results.',
      annotations: { readOnlyHint: true },
    },
    async (id) => {
      const post = await getPost(ctx, userId, id);
      return ok(post, `Post ${post.id} is ${post.status}.`);
    },
  );

  server.registerTool(
    'update_post',
    {
      title: 'Update a post',
      description: 'Changes a draft, scheduled or failed post (posted posts cannot change).',
      inputSchema: { id: PostId, ...PostPatchRequest.shape },
    },
    tool(ctx, async ({ id, ...patch }) => {
      const post = await updatePost(ctx, userId, id, toPostPatch(patch));
      return ok(post, `Post ${post.id} updated (${post.status}).`);
    }),
  );

  postTool(
    'publish_post',
    {
      title: 'Publish a post now',
      description:
        'Publishes a draft, scheduled or failed post now (a failed post retries only the targets that did not post).',
      annotations: { openWorldHint: true },
    },
    async (id) => {
      const post = await actOnPost(ctx, userId, id, toPostAction({ postingMode: 'now' }));
      return ok(post, `Post ${post.id} is ${post.status}.`);
    },
  );

  server.registerTool(
    'schedule_post',
    {
      title: 'Schedule a post',
      description: 'Schedules a draft or failed post, or moves a scheduled one, to scheduledAt.',
      inputSchema: { id: PostId, scheduledAt: z.string().describe('ISO 8601 with offset') },
    },
    tool(ctx, async ({ id, scheduledAt }) => {
      const post = await actOnPost(ctx, userId, id, toPostAction({ postingMode: 'schedule', scheduledAt }));
      return ok(post, `Post ${post.id} is scheduled for ${post.scheduledAt}.`);
    }),
  );

  postTool(
    'delete_post',
    {
      title: 'Delete a post',
      description: 'Deletes a draft, scheduled or failed post.',
      annotations: { destructiveHint: true },
    },
    async (id) => {
      await deletePost(ctx, userId, id);
      return ok({ deleted: id }, `Post ${id} deleted.`);
    },
  );

  server.registerTool(
    'upload_media_from_url',
    {
      title: 'Add media from a URL',
      description:
        'Fetches a public https URL (image, video or PDF) into Postwave storage and returns the media object to attach to a post.',
      inputSchema: {
        url: z.string().max(4000).describe('A public https URL'),
        filename: z.string().max(200).optional(),
      },
      annotations: { openWorldHint: true },
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
      inputSchema: PresignRequest.shape,
    },
    tool(ctx, async (args) => {
      const presigned = await presignUpload(ctx, userId, args);
      return ok(presigned, `PUT the file to uploadUrl before ${presigned.expiresAt}.`);
    }),
  );

  return server;
}
