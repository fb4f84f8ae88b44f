import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppContext } from '#server/context.ts';
import type { McpActor } from '../actor.ts';
import { registerAccountTools } from './accounts.ts';
import { registerAnalyticsTools } from './analytics.ts';
import { registerApprovalTools } from './approvals.ts';
import { registerFeedTools } from './feeds.ts';
import { idempotencyKeyed } from './idempotency.ts';
import { inputChecked } from './input.ts';
import { registerMediaTools } from './media.ts';
import { permissionChecked } from './permissions.ts';
import { registerPostActionTools } from './post-actions.ts';
import { registerPostTools } from './posts.ts';
import { registerQueueTools } from './queue.ts';
import { registerTemplateTools } from './templates.ts';
import { registerWebhookTools } from './webhooks.ts';

/**
 * Every MCP tool, registered in one place. Tools act as the granting member, with their role in the
 * grant's workspace (each tool's permission is checked first, ./permissions.ts), and call the same
 * operations as /api/v1 (one file per resource); publishing ones confirm with the user first.
 * Each call runs, in this order: the permission check, the idempotency key of publishing tools
 * (./idempotency.ts), the input schema (./input.ts), the tool; the same order as a REST route.
 */
export function registerTools(mcpServer: McpServer, ctx: AppContext, actor: McpActor): void {
  // The view registered last wraps first, so its check runs last.
  const server = inputChecked(idempotencyKeyed(permissionChecked(mcpServer, actor), ctx, actor), ctx);
  registerAccountTools(server, ctx, actor);
  registerPostTools(server, ctx, actor);
  registerPostActionTools(server, ctx, actor);
  registerApprovalTools(server, ctx, actor);
  registerMediaTools(server, ctx, actor);
  registerFeedTools(server, ctx, actor);
  registerQueueTools(server, ctx, actor);
  registerWebhookTools(server, ctx, actor);
  registerAnalyticsTools(server, ctx, actor);
  registerTemplateTools(server, ctx, actor);
}
