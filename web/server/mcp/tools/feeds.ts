import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { parseBody } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { feedModes } from '#server/db/schema.ts';
import { FeedPatch, FeedRequest } from '#server/feeds/schema.ts';
import { createFeed, deleteFeed, listFeeds, pollOwnedFeed, updateFeed } from '#server/feeds/service.ts';
import type { McpActor } from '../actor.ts';
import { McpAccountIds } from '../schemas.ts';
import { destructiveIdempotent, readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

const FeedId = z.string().max(100).describe('The feed id (from list_feeds)');
const Template = z
  .string()
  .min(1)
  .max(10_000)
  .describe('Post text; {{title}}, {{link}} and {{summary}} are replaced by the item’s');
const Mode = z
  .enum(feedModes)
  .describe(
    'draft: each new item becomes a draft to review; now: it is published at once; queue: it takes the next free slot of the accounts’ queues',
  );
const Interval = z.number().int().min(5).max(1440).describe('Minutes between polls (5 to 1440)');

/** Feed tools: thin wrappers over the feeds service, as `/api/v1/feeds` is. */
export function registerFeedTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;
  server.registerTool(
    'list_feeds',
    {
      title: 'List feeds',
      description:
        'The RSS/Atom feeds that turn new items into posts: URL, accounts, template, mode and last poll.',
      inputSchema: {},
      annotations: readOnly,
    },
    tool(ctx, async () => {
      const feeds = await listFeeds(ctx, workspaceId);
      return ok({ feeds }, `${feeds.length} feed(s).`);
    }),
  );

  server.registerTool(
    'create_feed',
    {
      title: 'Add a feed',
      description:
        'Watches an RSS/Atom/JSON feed URL: items already in it are marked seen (never posted); each later item becomes a post to accountIds from the template. mode "now" publishes those posts without asking, so confirm with the user first.',
      inputSchema: {
        url: z.string().max(2000).describe('The feed URL (public http or https)'),
        accountIds: McpAccountIds,
        template: Template.optional(),
        mode: Mode.optional(),
        intervalMinutes: Interval.optional(),
        name: z.string().max(200).optional().describe('A name to recognise the feed by'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async (args) => {
      const parsed = parseBody(FeedRequest, args);
      const feed = await createFeed(ctx, workspaceId, parsed);
      return ok(feed, `Feed ${feed.id} added (${feed.lastStatus ?? 'not polled yet'}).`);
    }),
  );

  server.registerTool(
    'update_feed',
    {
      title: 'Change a feed',
      description: 'Changes a feed’s URL, accounts, template, mode, interval or enabled state.',
      inputSchema: {
        id: FeedId,
        url: z.string().max(2000).optional().describe('A new feed URL (its existing items are not posted)'),
        accountIds: McpAccountIds.optional(),
        template: Template.optional(),
        mode: Mode.optional(),
        intervalMinutes: Interval.optional(),
        enabled: z.boolean().optional().describe('false pauses polling'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    tool(ctx, async ({ id, ...fields }) => {
      const patch = parseBody(FeedPatch, fields);
      const feed = await updateFeed(ctx, workspaceId, id, patch);
      return ok(feed, `Feed ${feed.id} updated.`);
    }),
  );

  server.registerTool(
    'poll_feed',
    {
      title: 'Poll a feed now',
      description: 'Fetches the feed now; new items become posts as the feed’s mode says.',
      inputSchema: { id: FeedId },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async ({ id }) => {
      const result = await pollOwnedFeed(ctx, workspaceId, id);
      return ok(
        result,
        `Poll: ${result.status}, ${result.newItems} new item(s), ${result.postIds.length} post(s).`,
      );
    }),
  );

  server.registerTool(
    'delete_feed',
    {
      title: 'Delete a feed',
      description: 'Stops watching the feed; posts it already created stay.',
      inputSchema: { id: FeedId },
      annotations: destructiveIdempotent,
    },
    tool(ctx, async ({ id }) => {
      await deleteFeed(ctx, workspaceId, id);
      return ok({ deleted: id }, `Feed ${id} deleted.`);
    }),
  );
}
