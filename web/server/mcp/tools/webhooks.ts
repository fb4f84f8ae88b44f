import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { subscribableWebhookEvents } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { webhookDeliveryStatuses } from '#server/db/schema.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  sendTestEvent,
} from '#server/webhooks/service.ts';
import type { McpActor } from '../actor.ts';
import { destructiveIdempotent, readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

const WebhookId = z.string().min(1).max(100).describe('The webhook id (from list_webhooks)');

/** Webhook tools: thin wrappers over the same service as /api/v1/webhooks. */
export function registerWebhookTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;
  server.registerTool(
    'list_webhooks',
    {
      title: 'List webhooks',
      description:
        'The webhook endpoints: id, url, subscribed events, whether each is enabled (an endpoint failing for a day is turned off, with disabledReason). Never the secrets.',
      inputSchema: {},
      annotations: readOnly,
    },
    tool(ctx, async () => {
      const webhooks = await listWebhooks(ctx, workspaceId);
      return ok({ webhooks }, `${webhooks.length} webhook endpoint(s).`);
    }),
  );

  server.registerTool(
    'create_webhook',
    {
      title: 'Create a webhook',
      description:
        'Adds an endpoint that receives signed POSTs (Standard Webhooks) for the chosen events. The answer holds the whsec_ signing secret: it is shown only this once, so hand it to the user to store. The URL must be https on a public host.',
      inputSchema: {
        url: z.string().min(1).max(2000).describe('https URL that receives the events'),
        events: z
          .array(z.enum(subscribableWebhookEvents as [string, ...string[]]))
          .min(1)
          .describe('Events to send'),
        description: z.string().max(500).optional().describe('A note for the user, e.g. what receives it'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    tool(
      ctx,
      async ({ url, events, description }: { url: string; events: string[]; description?: string }) => {
        const created = await createWebhook(
          ctx,
          workspaceId,
          { url, events, description },
          await actor.auditActor(),
        );
        return ok(
          created,
          `Webhook ${created.id} created. Its signing secret is shown only now: ${created.secret}`,
        );
      },
    ),
  );

  server.registerTool(
    'delete_webhook',
    {
      title: 'Delete a webhook',
      description: 'Removes an endpoint and its delivery log; nothing more is sent to it.',
      inputSchema: { id: WebhookId },
      annotations: destructiveIdempotent,
    },
    tool(ctx, async ({ id }: { id: string }) => {
      await deleteWebhook(ctx, workspaceId, id, await actor.auditActor());
      return ok({ deleted: true, id }, `Webhook ${id} deleted.`);
    }),
  );

  server.registerTool(
    'test_webhook',
    {
      title: 'Send a test event',
      description:
        'Sends a webhook.test event to the endpoint now and returns the delivery after its first attempt (status, HTTP status, response time, error).',
      inputSchema: { id: WebhookId },
      // It reaches the user's own endpoint on the internet.
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async ({ id }: { id: string }) => {
      const delivery = await sendTestEvent(ctx, workspaceId, id);
      const last = delivery.attemptLog[0];
      return ok(
        delivery,
        delivery.status === 'delivered'
          ? `Test delivered (HTTP ${last?.statusCode}, ${last?.durationMs} ms).`
          : `Test not delivered: ${delivery.lastError ?? 'no answer'}; it will be retried.`,
      );
    }),
  );

  server.registerTool(
    'list_webhook_deliveries',
    {
      title: 'List webhook deliveries',
      description:
        'The delivery log of one endpoint, newest first: event, status (pending, delivered, failed), each attempt with HTTP status, response time and error.',
      inputSchema: {
        id: WebhookId,
        status: z.enum(webhookDeliveryStatuses).optional().describe('Only deliveries in this status'),
        limit: z.number().int().min(1).max(200).optional().describe('How many (default 20)'),
      },
      annotations: readOnly,
    },
    tool(
      ctx,
      async ({
        id,
        status,
        limit,
      }: {
        id: string;
        status?: (typeof webhookDeliveryStatuses)[number];
        limit?: number;
      }) => {
        const page = await listDeliveries(ctx, workspaceId, id, { status, limit: limit ?? 20 });
        return ok(page, `${page.deliveries.length} deliver${page.deliveries.length === 1 ? 'y' : 'ies'}.`);
      },
    ),
  );
}
