import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json, preflightRoute, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { McpConnectionList } from '#server/oauth/schema.ts';

const mcpEndpoint = (method: 'get' | 'post' | 'delete', operationId: string, summary: string) => ({
  method,
  path: '/mcp',
  auth: 'mcpToken' as const,
  operationId,
  summary,
  description:
    'MCP Streamable HTTP, stateless, JSON responses. Needs an OAuth access token from this server’s authorization server (`/.well-known/oauth-protected-resource/mcp`).',
  tags: ['MCP'],
  responses: {
    200: { description: 'JSON-RPC response.', content: { [json]: { type: 'object' } } },
    401: { description: '`WWW-Authenticate` names the protected resource metadata.' },
  },
});

export const mcpRoutes = defineApiRoutes({
  mcpPost: mcpEndpoint('post', 'mcpPost', 'MCP JSON-RPC messages (tools: posts, accounts, media)'),
  mcpGet: mcpEndpoint('get', 'mcpGet', 'MCP server-to-client stream (not offered: 405)'),
  mcpDelete: mcpEndpoint('delete', 'mcpDelete', 'MCP session end (stateless: nothing to end)'),
  mcpPreflight: preflightRoute('/mcp', 'mcpPreflight'),
  listMcpClients: {
    method: 'get',
    path: '/api/v1/mcp-clients',
    auth: 'session',
    operationId: 'listMcpClients',
    summary: 'The MCP clients (AI assistants) connected to the signed-in user',
    responses: {
      200: { description: 'Clients.', content: { [json]: McpConnectionList } },
      ...problemResponses({ ...unauthorized, forbidden: 'not a browser session' }),
    },
  },
  revokeMcpClient: {
    method: 'delete',
    path: '/api/v1/mcp-clients',
    auth: 'session',
    operationId: 'revokeMcpClient',
    summary: 'Disconnect one MCP client from the user (its tokens stop working at once)',
    parameters: [{ name: 'clientId', in: 'query', required: true, schema: z.string() }],
    responses: {
      204: { description: 'Disconnected.' },
      ...problemResponses({
        ...unauthorized,
        forbidden: 'not a browser session',
        invalid_request: 'no clientId',
        not_found: 'no such connected client',
      }),
    },
  },
});
