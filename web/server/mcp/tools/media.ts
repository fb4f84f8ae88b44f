import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PresignRequest } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { uploadMediaFromUrl } from '#server/media/from-url.ts';
import { presignUpload } from '#server/media/service.ts';
import type { McpActor } from '../actor.ts';
import { ok, tool } from './results.ts';

/** Adding media to attach to a post: fetched from a public URL, or PUT to a presigned URL. */
export function registerMediaTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;

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
