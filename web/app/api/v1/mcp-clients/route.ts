import { ProblemError, problem } from '@postwave/shared';
import { json, noContent, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { mcpRoutes } from '#server/mcp/routes.ts';
import { listMcpConnections, revokeMcpConnection } from '#server/oauth/connections.ts';

export const runtime = 'nodejs';

/** The MCP clients (AI assistants) connected to the signed-in user. */
export const GET = route(mcpRoutes.listMcpClients, async ({ ctx, caller }) => {
  return json({ clients: await listMcpConnections(ctx, caller.userId) });
});

/** `?clientId=`: disconnects that client from the user (its tokens stop working at once). */
export const DELETE = route(mcpRoutes.revokeMcpClient, async ({ request, ctx, caller }) => {
  const clientId = new URL(request.url).searchParams.get('clientId');
  if (!clientId || clientId.length > 2000)
    throw new ProblemError(problem('invalid_request', 'clientId is required'));
  if (!(await revokeMcpConnection(ctx, caller.userId, clientId))) throw notFound('connected MCP client');
  return noContent();
});
