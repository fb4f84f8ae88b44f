import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { problem } from '@postwave/shared';
import { getContext } from '#server/context.ts';
import { errorResponse } from '#server/http/route.ts';
import { authenticateMcp, mcpRefusal } from '#server/mcp/auth.ts';
import { findSession, startSession, statelessTransport } from '#server/mcp/sessions.ts';
import { corsHeaders, preflight } from '#server/oauth/metadata.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function jsonRpcError(status: number, code: number, message: string, extra: Record<string, string> = {}) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...corsHeaders, ...extra },
  });
}

function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(corsHeaders)) headers.set(k, v);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * MCP Streamable HTTP. `initialize` starts a session (`Mcp-Session-Id`): the server lives on, so
 * it can ask the user to confirm (elicitation) in the middle of a tool call and push
 * `notifications/resources/updated` on the GET stream. A POST without a session that is not
 * `initialize` is served statelessly by a server built for that request alone.
 */
async function handle(request: Request): Promise<Response> {
  let ctx: Awaited<ReturnType<typeof getContext>> | undefined;
  try {
    ctx = await getContext();
    const caller = await authenticateMcp(ctx, request);
    if (!caller) {
      // A problem (contract B: every error) that also carries OAuth's `error` members (RFC 6750)
      // when a token was refused, which MCP clients read along with the challenge.
      const { challenge, detail, error } = mcpRefusal(ctx, request);
      return new Response(
        JSON.stringify({
          ...problem('unauthorized', detail),
          ...(error ? { error, error_description: detail } : {}),
        }),
        {
          status: 401,
          headers: {
            'content-type': 'application/problem+json',
            'www-authenticate': challenge,
            ...corsHeaders,
          },
        },
      );
    }
    const authInfo = {
      token: caller.token,
      clientId: caller.clientId,
      scopes: caller.scopes,
      ...(caller.expiresAt ? { expiresAt: caller.expiresAt } : {}),
    };
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = findSession(sessionId, caller);
      if (!session) return jsonRpcError(404, -32001, 'Session not found: initialize a new session');
      return withCors(await session.transport.handleRequest(request, { authInfo }));
    }
    if (request.method !== 'POST') {
      return jsonRpcError(405, -32000, 'Method not allowed without a session: POST initialize first', {
        allow: 'POST, OPTIONS',
      });
    }
    // Peek at the body to tell `initialize` from a stateless call; the transport re-checks it.
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    const initializes = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (initializes) {
      const transport = await startSession(ctx, caller);
      return withCors(await transport.handleRequest(request, { authInfo, parsedBody: body }));
    }
    const { transport, dispose } = await statelessTransport(ctx, caller);
    try {
      return withCors(
        await transport.handleRequest(request, {
          authInfo,
          ...(body === undefined ? {} : { parsedBody: body }),
        }),
      );
    } finally {
      dispose();
    }
  } catch (error) {
    return errorResponse(error, ctx);
  }
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = preflight;
