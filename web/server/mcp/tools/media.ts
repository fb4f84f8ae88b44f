import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PresignRequest } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { uploadMediaFromUrl } from '#server/media/from-url.ts';
import { listMedia } from '#server/media/list-media.ts';
import { ListMediaQuery } from '#server/media/schema.ts';
import { presignUpload } from '#server/media/service.ts';
import type { McpActor } from '../actor.ts';
import { readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

/**
 * Media to attach to a post: found in the workspace's library, fetched from a public URL, or PUT
 * to a presigned URL.
 */
export function registerMediaTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;

  server.registerTool(
    'list_media',
    {
      title: 'List the media library',
      description:
        "The workspace's media library, newest first, like GET /api/v1/media: each media object (attach it to a post as it is, in media) with its alt text, tags and the posts using it. `q` matches file name, alt text and tags; pass nextCursor back as cursor for the next page.",
      inputSchema: {
        q: ListMediaQuery.shape.q.describe('Words to find in the file name, alt text or tags'),
        kind: ListMediaQuery.shape.kind.describe('Only images, videos or documents (PDFs)'),
        tag: ListMediaQuery.shape.tag.describe('One tag exactly (any case)'),
        limit: z.number().int().min(1).max(100).optional().describe('At most this many (default 20)'),
        cursor: ListMediaQuery.shape.cursor.describe('nextCursor of the previous page'),
      },
      annotations: readOnly,
    },
    tool(ctx, async (args) => {
      const page = await listMedia(
        ctx,
        workspaceId,
        ListMediaQuery.parse({ ...args, limit: args.limit ?? 20 }),
      );
      return ok(
        page,
        `${page.media.length} media${page.nextCursor ? ' (more: pass nextCursor as cursor)' : ''}.`,
      );
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
      const media = await uploadMediaFromUrl(ctx, workspaceId, args);
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
      const presigned = await presignUpload(ctx, workspaceId, args);
      return ok(presigned, `PUT the file to uploadUrl before ${presigned.expiresAt}.`);
    }),
  );
}
