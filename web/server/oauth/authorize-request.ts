import type { AppContext } from '#server/context.ts';
import { ClientMetadataError, findClient, type OAuthClient } from './clients.ts';
import { OAuthError } from './errors.ts';
import { mcpResource, mcpScope } from './metadata.ts';

export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scope: string;
  resource: string;
}

/**
 * Checks an authorization request. Every error found here is shown on our own error page and
 * never sent to the redirect URI: registration is open, so anyone can register a client whose
 * redirect URI is a page of theirs, and a redirect before the user acted on the consent page
 * would make this endpoint an open redirector (RFC 9700 §4.11.2).
 */
export async function parseAuthorizeRequest(ctx: AppContext, q: URLSearchParams): Promise<AuthorizeRequest> {
  const clientId = q.get('client_id') ?? '';
  let client: OAuthClient | undefined;
  try {
    client = clientId ? await findClient(ctx, clientId) : undefined;
  } catch (error) {
    if (error instanceof ClientMetadataError) throw new OAuthError('invalid_client', error.message);
    throw error;
  }
  if (!client)
    throw new OAuthError('invalid_client', 'Unknown client_id: the application must register again');
  const redirectUri = q.get('redirect_uri') ?? '';
  // Exact string match against a registered URI (no prefix or pattern matching).
  if (!client.redirectUris.includes(redirectUri)) {
    throw new OAuthError('invalid_request', 'redirect_uri does not exactly match a registered redirect URI');
  }
  const state = q.get('state') ?? undefined;
  if (state !== undefined && state.length > 1000)
    throw new OAuthError('invalid_request', 'state is too long');
  const fail = (error: string, message: string) => new OAuthError(error, message);
  if (q.get('response_type') !== 'code')
    throw fail('unsupported_response_type', 'response_type must be code');
  if (q.get('code_challenge_method') !== 'S256')
    throw fail('invalid_request', 'PKCE with code_challenge_method=S256 is required');
  const codeChallenge = q.get('code_challenge') ?? '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge))
    throw fail('invalid_request', 'code_challenge must be a base64url SHA-256');
  const requested = (q.get('scope') ?? '').split(' ').filter(Boolean);
  if (requested.some((s) => s !== mcpScope)) throw fail('invalid_scope', `The only scope is "${mcpScope}"`);
  const resources = q.getAll('resource');
  const expected = mcpResource(ctx.config.appUrl);
  if (resources.length > 1 || (resources.length === 1 && normalizeResource(resources[0]!) !== expected)) {
    throw fail('invalid_target', `resource must be ${expected}`);
  }
  return { client, redirectUri, state, codeChallenge, scope: mcpScope, resource: expected };
}

/** A resource as the grant records it: without trailing slashes. */
export function normalizeResource(value: string): string {
  return value.replace(/\/+$/, '');
}

/** The query that carries a checked request from the authorize endpoint to the consent page and form. */
export function authorizeQuery(r: AuthorizeRequest): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: r.client.id,
    redirect_uri: r.redirectUri,
    code_challenge: r.codeChallenge,
    code_challenge_method: 'S256',
    scope: r.scope,
    resource: r.resource,
  });
  if (r.state !== undefined) q.set('state', r.state);
  return q.toString();
}

export function clientRedirect(
  ctx: AppContext,
  r: { redirectUri: string; state?: string },
  params: Record<string, string>,
): string {
  const url = new URL(r.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (r.state !== undefined) url.searchParams.set('state', r.state);
  url.searchParams.set('iss', ctx.config.appUrl);
  return url.toString();
}
