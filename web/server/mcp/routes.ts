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
    'MCP Streamable HTTP. `initialize` starts a session (`Mcp-Session-Id`, SSE responses, a GET stream for `notifications/resources/updated`, DELETE to end it); a POST without a session that is not `initialize` is answered statelessly (JSON). Publishing tools ask the user to confirm by elicitation when the client declares it. Needs an OAuth access token from this server’s authorization server (`/.well-known/oauth-protected-resource/mcp`) or a personal API token. See docs/mcp.md.',
  tags: ['MCP'],
  responses: {
    200: { description: 'JSON-RPC response.', content: { [json]: { type: 'object' } } },
    401: { description: '`WWW-Authenticate` names the protected resource metadata.' },
  },
});

/** How assistants may act for the user. */
export const AssistantSettings = z
  .object({
    assistantsMustConfirm: z
      .boolean()
      .describe(
        'When an MCP client cannot ask the user (no elicitation), publishing tools save a draft and return an approval link instead of publishing or scheduling.',
      ),
  })
  .meta({ id: 'AssistantSettings' });

export const mcpRoutes = defineApiRoutes({
  getAssistantSettings: {
    method: 'get',
    path: '/api/v1/mcp-clients/settings',
    auth: 'session',
    permission: 'read',
    operationId: 'getAssistantSettings',
    summary: 'How assistants (MCP clients) may act: "assistants must confirm"',
    responses: {
      200: { description: 'Settings.', content: { [json]: AssistantSettings } },
      ...problemResponses({ ...unauthorized, forbidden: 'not a browser session' }),
    },
  },
  updateAssistantSettings: {
    method: 'put',
    path: '/api/v1/mcp-clients/settings',
    auth: 'session',
    permission: 'workspace.manage',
    operationId: 'updateAssistantSettings',
    summary: 'Turn "assistants must confirm" on or off',
    requestBody: { content: { [json]: AssistantSettings } },
    responses: {
      200: { description: 'Saved.', content: { [json]: AssistantSettings } },
      ...problemResponses({
        ...unauthorized,
        forbidden: 'not a same-origin browser session',
        invalid_request: 'assistantsMustConfirm missing or not a boolean',
      }),
    },
  },
  mcpPost: mcpEndpoint('post', 'mcpPost', 'MCP JSON-RPC messages (tools, resources, prompts)'),
  mcpGet: mcpEndpoint(
    'get',
    'mcpGet',
    'MCP server-to-client stream of a session (405 without `Mcp-Session-Id`, 404 for an unknown session)',
  ),
  mcpDelete: mcpEndpoint('delete', 'mcpDelete', 'End an MCP session'),
  mcpPreflight: preflightRoute('/mcp', 'mcpPreflight'),
  listMcpClients: {
    method: 'get',
    path: '/api/v1/mcp-clients',
    auth: 'session',
    permission: 'self',
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
    permission: 'self',
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
