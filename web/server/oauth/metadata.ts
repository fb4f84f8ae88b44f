/** The scope MCP tokens carry: everything a signed-in user can do through the MCP tools. */
export const mcpScope = 'mcp';

export function mcpResource(appUrl: string): string {
  return `${appUrl}/mcp`;
}

export function protectedResourceMetadataUrl(appUrl: string): string {
  return `${appUrl}/.well-known/oauth-protected-resource/mcp`;
}

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(appUrl: string) {
  return {
    issuer: appUrl,
    authorization_endpoint: `${appUrl}/api/oauth/authorize`,
    token_endpoint: `${appUrl}/api/oauth/token`,
    registration_endpoint: `${appUrl}/api/oauth/register`,
    revocation_endpoint: `${appUrl}/api/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [mcpScope],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${appUrl}/docs/mcp`,
  };
}

/** RFC 9728 protected resource metadata for /mcp. */
export function protectedResourceMetadata(appUrl: string) {
  return {
    resource: mcpResource(appUrl),
    authorization_servers: [appUrl],
    scopes_supported: [mcpScope],
    bearer_methods_supported: ['header'],
    resource_name: 'Postwave MCP',
  };
}

/** Public, bearer-only endpoints (metadata, token, registration, /mcp) may be called from any origin. */
export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version',
  'access-control-max-age': '86400',
};

export function preflight(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}

export function jsonWithCors(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...corsHeaders, ...headers },
  });
}

/** RFC 6749 §5.2 error body. */
export function oauthError(error: string, description: string, status = 400): Response {
  return jsonWithCors(
    { error, error_description: description },
    status,
    status === 401 ? { 'www-authenticate': 'Basic realm="postwave"' } : {},
  );
}
