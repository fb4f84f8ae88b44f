import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppContext } from '#server/context.ts';
import { findClientRow } from '#server/oauth/repository.ts';
import { type RecordedAction, recordPostEvent } from '#server/posts/history.ts';
import { tokenName } from '#server/tokens/repository.ts';
import type { McpCaller } from './auth.ts';

/** Who is acting through /mcp: the user, by way of a named client. */
export interface McpActor {
  userId: string;
  /** The name the user approved on the consent page (or the API token's name). */
  clientName(): Promise<string>;
  /** Adds an assistant action to the post's history, naming the client. */
  record(postId: string, action: RecordedAction, detail?: Record<string, unknown>): Promise<void>;
}

async function lookUpClientName(ctx: AppContext, caller: McpCaller): Promise<string> {
  const apiToken = /^api-token:(.+)$/.exec(caller.clientId);
  if (apiToken) {
    const name = await tokenName(ctx, apiToken[1]!);
    return name ? `API token “${name}”` : 'API token';
  }
  const client = await findClientRow(ctx, caller.clientId);
  return client?.name || 'Unnamed MCP client';
}

export function createActor(ctx: AppContext, caller: McpCaller, server: McpServer): McpActor {
  let name: Promise<string> | undefined;
  const clientName = () => {
    name ??= lookUpClientName(ctx, caller).catch(() => 'MCP client');
    return name;
  };
  return {
    userId: caller.userId,
    clientName,
    async record(postId, action, detail = {}) {
      // The name the MCP client gave itself at initialize is self-declared: kept as a detail only.
      const info = server.server.getClientVersion();
      try {
        await recordPostEvent(ctx, {
          postId,
          userId: caller.userId,
          actor: 'assistant',
          actorName: await clientName(),
          action,
          detail: { ...detail, ...(info ? { clientInfo: { name: info.name, version: info.version } } : {}) },
        });
      } catch (error) {
        // The action itself happened; a lost history line must not turn it into an error.
        ctx.logger.error({ err: error, postId, action }, 'could not record post history');
      }
    },
  };
}
