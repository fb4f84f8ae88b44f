import { z } from 'zod';
import { json, preflightRoute, redirectResponse } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { RegistrationRequest } from './clients.ts';

const oauthError = {
  400: {
    description: 'RFC 6749 error body: `{ error, error_description }`.',
    content: { [json]: z.object({ error: z.string(), error_description: z.string().optional() }) },
  },
};
const metadata = { 200: { description: 'The metadata document.', content: { [json]: { type: 'object' } } } };

export const oauthRoutes = defineApiRoutes({
  authorizationServerMetadata: {
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    auth: 'public',
    operationId: 'getAuthorizationServerMetadata',
    summary: 'RFC 8414 metadata of the MCP authorization server',
    tags: ['OAuth'],
    responses: metadata,
  },
  authorizationServerMetadataPreflight: preflightRoute(
    '/.well-known/oauth-authorization-server',
    'authorizationServerMetadataPreflight',
  ),
  protectedResourceMetadata: {
    method: 'get',
    path: '/.well-known/oauth-protected-resource',
    auth: 'public',
    operationId: 'getProtectedResourceMetadata',
    summary: 'RFC 9728 metadata of the MCP endpoint',
    tags: ['OAuth'],
    responses: metadata,
  },
  protectedResourceMetadataPreflight: preflightRoute(
    '/.well-known/oauth-protected-resource',
    'protectedResourceMetadataPreflight',
  ),
  mcpResourceMetadata: {
    method: 'get',
    path: '/.well-known/oauth-protected-resource/mcp',
    auth: 'public',
    operationId: 'getMcpResourceMetadata',
    summary: 'RFC 9728 metadata at the path-suffixed address of `/mcp`',
    tags: ['OAuth'],
    responses: metadata,
  },
  mcpResourceMetadataPreflight: preflightRoute(
    '/.well-known/oauth-protected-resource/mcp',
    'mcpResourceMetadataPreflight',
  ),
  authorize: {
    method: 'get',
    path: '/api/oauth/authorize',
    auth: 'public',
    operationId: 'oauthAuthorize',
    summary: 'OAuth 2.1 authorization endpoint (PKCE S256): to sign-in, then the consent page',
    tags: ['OAuth'],
    responses: {
      ...redirectResponse('To the consent page, or back to the client with an error.'),
      400: {
        description:
          'An HTML error page when the request cannot be used (unknown client, unregistered redirect URI, PKCE, scope, resource, response type); the consent page sends such a request back here.',
        content: { 'text/html': { type: 'string' } },
      },
    },
  },
  authorizeDecision: {
    method: 'post',
    path: '/api/oauth/authorize/decision',
    auth: 'public',
    operationId: 'oauthAuthorizeDecision',
    summary: 'The consent form (same-origin browser session): approve or deny the client',
    tags: ['OAuth'],
    responses: {
      ...redirectResponse('To the client’s redirect URI with a code, or `error=access_denied`.'),
      400: { description: 'An HTML error page.' },
    },
  },
  register: {
    method: 'post',
    path: '/api/oauth/register',
    auth: 'public',
    operationId: 'oauthRegister',
    summary: 'RFC 7591 dynamic client registration (public clients)',
    tags: ['OAuth'],
    requestBody: { content: { [json]: RegistrationRequest } },
    responses: {
      201: { description: 'Registered.', content: { [json]: { type: 'object' } } },
      ...oauthError,
      413: { description: 'The body is over 64 KiB: `invalid_request`.', content: oauthError[400].content },
    },
  },
  registerPreflight: preflightRoute('/api/oauth/register', 'oauthRegisterPreflight'),
  token: {
    method: 'post',
    path: '/api/oauth/token',
    auth: 'oauthClient',
    operationId: 'oauthToken',
    summary: 'Token endpoint: `authorization_code` (with PKCE verifier) or `refresh_token` grants',
    description:
      "Codes are single-use; refresh tokens rotate on every use, and one presented again revokes its whole family (docs/mcp.md). A refresh whose `resource` is not the grant's (`invalid_target`) or whose `scope` goes beyond `mcp` (`invalid_scope`) is refused before the refresh token is spent: it stays usable.",
    tags: ['OAuth'],
    requestBody: {
      content: { 'application/x-www-form-urlencoded': z.object({ grant_type: z.string() }).loose() },
    },
    responses: { 200: { description: 'Tokens.', content: { [json]: { type: 'object' } } }, ...oauthError },
  },
  tokenPreflight: preflightRoute('/api/oauth/token', 'oauthTokenPreflight'),
  revoke: {
    method: 'post',
    path: '/api/oauth/revoke',
    auth: 'oauthClient',
    operationId: 'oauthRevoke',
    summary: 'RFC 7009 token revocation: 200 whether or not the token was known',
    tags: ['OAuth'],
    requestBody: {
      content: { 'application/x-www-form-urlencoded': z.object({ token: z.string() }).loose() },
    },
    responses: { 200: { description: 'Revoked (or unknown).' }, ...oauthError },
  },
  revokePreflight: preflightRoute('/api/oauth/revoke', 'oauthRevokePreflight'),
});
