import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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
  unprefixedErrors(server);
  const actor = createActor(ctx, caller, server);
  registerTools(server, ctx, actor);
  const stopResources = registerResources(server, ctx, caller.workspaceId, options);
  registerPrompts(server, ctx, caller.workspaceId);
  invalidParamsAnswered(server);
  return { server, dispose: stopResources };
}

/**
 * An McpError's message starts with "MCP error <code>: ", and the SDK sends that message as the
 * JSON-RPC error's; the client's McpError adds the prefix again ("MCP error -32602: MCP error
 * -32602: Resource not found"). Every handler (ours and the SDK's, e.g. an unknown prompt) answers
 * the bare message, with the same code and data.
 */
function unprefixedErrors(server: McpServer): void {
  const protocol = server.server;
  const setRequestHandler = protocol.setRequestHandler.bind(protocol);
  protocol.setRequestHandler = ((schema: never, handler: (...args: never[]) => unknown) =>
    setRequestHandler(schema, (async (...args: never[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        const prefix = `MCP error ${error.code}: `;
        const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
        throw Object.assign(new Error(message), { code: error.code, data: error.data });
      }
    }) as never)) as typeof protocol.setRequestHandler;
}

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK checks a request's params against the method's schema outside every handler (tools/call
 * whose `arguments` is an array, a call without `params`) and its ZodError reaches the wire as
 * -32603 Internal error with the issues as a JSON dump. JSON-RPC says -32602 Invalid params: each
 * handler (registered by now, tools' included) answers that, with the issues in one line.
 */
function invalidParamsAnswered(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RequestHandler> })
    ._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const issues = (error as { issues?: { path?: PropertyKey[]; message?: string }[] }).issues;
        // Only the request's own check: its issues sit under `params` (a handler's may not).
        if (
          error instanceof McpError ||
          !Array.isArray(issues) ||
          !issues.every((issue) => issue.path?.[0] === 'params')
        )
          throw error;
        const reasons = issues
          .map((issue) => `${(issue.path ?? []).map(String).join('.')}: ${issue.message}`)
          .join('; ');
        throw Object.assign(new Error(`Invalid params: ${reasons}`), { code: ErrorCode.InvalidParams });
      }
    });
  }
}
