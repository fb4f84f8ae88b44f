import { ProblemError, problem } from '@postwave/shared';
import { requireCaller } from '#server/auth/caller.ts';
import { json, noContent, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { listMcpConnections, revokeMcpConnection } from '#server/oauth/connections.ts';

export const runtime = 'nodejs';

/** The MCP clients (AI assistants) connected to the signed-in user. */
export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  return json({ clients: await listMcpConnections(ctx, caller.userId) });
});

/** `?clientId=`: disconnects that client from the user (its tokens stop working at once). */
export const DELETE = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  const clientId = new URL(request.url).searchParams.get('clientId');
  if (!clientId || clientId.length > 2000)
    throw new ProblemError(problem('invalid_request', 'clientId is required'));
  if (!(await revokeMcpConnection(ctx, caller.userId, clientId))) throw notFound('connected MCP client');
  return noContent();
});
