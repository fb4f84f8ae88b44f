import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppContext } from '#server/context.ts';
import { createActor } from './actor.ts';
import type { McpCaller } from './auth.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { registerTools } from './tools/register.ts';

export interface BuiltServer {
  server: McpServer;
  /** Ends what the server started (status subscriptions). */
  dispose(): void;
}

/** An MCP server acting as the caller's user: tools, resources and prompts over the same services as /api/v1. */
export function createMcpServer(
  ctx: AppContext,
  caller: McpCaller,
  options: { sessionful: boolean },
): BuiltServer {
  const server = new McpServer(
    { name: 'postwave', title: 'Postwave', version: '1.0.0' },
    {
      instructions:
        "Postwave publishes a message, optionally with media, to the user's connected social accounts. " +
        'Call list_accounts (or read postwave://accounts) for account ids, add media with upload_media_from_url or presign_upload, ' +
        'check with validate_post, then create_post with postingMode now, schedule (with scheduledAt) or draft. ' +
        'Publishing and scheduling ask the user to confirm when this client supports elicitation; if they decline, nothing is published. ' +
        'Subscribe to postwave://posts/{id} to hear when a post is posted or fails. The prompts announce and thread_from_text walk through it.',
    },
  );
  const actor = createActor(ctx, caller, server);
  registerTools(server, ctx, actor);
  const stopResources = registerResources(server, ctx, caller.workspaceId, options);
  registerPrompts(server, ctx, caller.workspaceId);
  return { server, dispose: stopResources };
}
