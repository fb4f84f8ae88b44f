import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { getContext } from '#server/context.ts';
import { errorResponse } from '#server/http/route.ts';
import { authenticateMcp, mcpChallenge } from '#server/mcp/auth.ts';
import { createMcpServer } from '#server/mcp/tools.ts';
import { corsHeaders, preflight } from '#server/oauth/metadata.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** MCP Streamable HTTP, stateless: each request gets a server bound to the token's user. */
async function handle(request: Request): Promise<Response> {
  let ctx: Awaited<ReturnType<typeof getContext>> | undefined;
  try {
    ctx = await getContext();
    const caller = await authenticateMcp(ctx, request);
    if (!caller) {
      return new Response(
        JSON.stringify({
          error: 'invalid_token',
          error_description: 'Authorization with a Postwave OAuth token is required',
        }),
        {
          status: 401,
          headers: {
            'content-type': 'application/json',
            'www-authenticate': mcpChallenge(ctx, request),
            ...corsHeaders,
          },
        },
      );
    }
    const server = createMcpServer(ctx, caller.userId);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, {
      authInfo: {
        token: caller.token,
        clientId: caller.clientId,
        scopes: caller.scopes,
        expiresAt: caller.expiresAt,
      },
    });
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(corsHeaders)) headers.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  } catch (error) {
    return errorResponse(error, ctx);
  }
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
export const OPTIONS = preflight;
