import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { getQueue, setQueue } from '#server/queue/service.ts';
import type { McpActor } from '../actor.ts';
import { readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

const McpAccountId = z.string().max(100).describe('An account id from list_accounts');
const McpQueueSlots = z
  .array(
    z.object({
      weekday: z.number().int().describe('1 = Monday … 7 = Sunday'),
      time: z.string().max(20).describe('HH:MM, 24-hour, in the queue’s time zone'),
    }),
  )
  .max(200)
  .describe('Weekly posting times; the list replaces the current slots');

/** Reading and setting an account's queue; posts join it through create_post with postingMode "queue". */
export function registerQueueTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;

  server.registerTool(
    'get_queue',
    {
      title: 'Get an account’s queue',
      description:
        'The account’s posting slots (IANA time zone, weekday 1–7 and HH:MM), its upcoming scheduled posts in order, and its next free slots. create_post with postingMode "queue" takes the next slot free in every target account’s queue.',
      inputSchema: { accountId: McpAccountId },
      annotations: readOnly,
    },
    tool(ctx, async ({ accountId }: { accountId: string }) => {
      const queue = await getQueue(ctx, workspaceId, accountId);
      return ok(
        queue,
        `${queue.slots.length} slot(s) a week in ${queue.timezone}; ${queue.posts.length} upcoming post(s).`,
      );
    }),
  );

  server.registerTool(
    'set_queue',
    {
      title: 'Set an account’s queue slots',
      description:
        'Replaces the account’s weekly posting slots. Posts already scheduled keep their times. Publishes nothing.',
      inputSchema: {
        accountId: McpAccountId,
        timezone: z.string().max(100).describe('IANA time zone, e.g. Europe/Berlin'),
        slots: McpQueueSlots,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    tool(
      ctx,
      async (args: { accountId: string; timezone: string; slots: { weekday: number; time: string }[] }) => {
        const queue = await setQueue(ctx, workspaceId, args.accountId, {
          timezone: args.timezone,
          slots: args.slots,
        });
        return ok(queue, `Saved ${queue.slots.length} slot(s) a week in ${queue.timezone}.`);
      },
    ),
  );
}
