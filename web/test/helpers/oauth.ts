import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { decide } from '../cli-auth.helpers.ts';
import type { Client } from './client.ts';

export const loopbackRedirect = 'http://127.0.0.1:53682/oauth/callback';

/** POST /api/oauth/token with a form body. */
export function tokenRequest(app: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${app}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
}

/** A public client registered through RFC 7591 dynamic registration. */
export async function registerClient(app: string, redirectUri = loopbackRedirect): Promise<string> {
  const response = await fetch(`${app}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Raw test client', redirect_uris: [redirectUri] }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  return (await response.json()).client_id;
}

/** One authorization of `clientId` by the signed-in browser: consent, then the code (not yet exchanged). */
export async function authorize(
  app: string,
  browser: Client,
  clientId: string,
  redirectUri = loopbackRedirect,
): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    scope: 'mcp',
    resource: `${app}/mcp`,
    state: randomBytes(8).toString('hex'),
  });
  const { location } = await decide(browser, `/api/oauth/authorize?${query}`, 'approve');
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return { code, verifier };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** grant_type=authorization_code; returns the raw response so tests can check refusals. */
export function exchange(
  app: string,
  clientId: string,
  grant: { code: string; verifier: string },
  redirectUri = loopbackRedirect,
): Promise<Response> {
  return tokenRequest(app, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code: grant.code,
    code_verifier: grant.verifier,
    redirect_uri: redirectUri,
  });
}

export function refresh(app: string, clientId: string, refreshToken: string): Promise<Response> {
  return tokenRequest(app, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
}

/** A JSON-RPC tools/list at /mcp with the given bearer token. */
export function rawMcp(app: string, token: string | undefined): Promise<Response> {
  return fetch(`${app}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

/** The SDK's OAuth client provider, in memory; the test plays the browser. */
export class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  /** Set to use a client ID metadata document (an https URL) instead of dynamic registration. */
  clientMetadataUrl: string | undefined;
  constructor(clientMetadataUrl?: string) {
    this.clientMetadataUrl = clientMetadataUrl;
  }
  get redirectUrl() {
    return loopbackRedirect;
  }
  get clientMetadata() {
    return {
      client_name: 'Test MCP client',
      redirect_uris: [loopbackRedirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Runs the whole OAuth dance with the SDK's client; the test plays the browser on the consent page. */
export async function connect(
  app: string,
  browser: Client,
  provider = new TestProvider(),
  clientOptions?: ConstructorParameters<typeof McpClient>[1],
) {
  const url = new URL(`${app}/mcp`);
  const first = new McpClient({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await assert.rejects(first.connect(transport), /Unauthorized/);
  assert.ok(provider.authorizationUrl, 'the SDK was sent to authorize');
  assert.equal(provider.authorizationUrl.searchParams.get('resource'), `${app}/mcp`);
  const { page, location } = await decide(browser, provider.authorizationUrl.toString(), 'approve');
  const code = new URL(location).searchParams.get('code')!;
  await transport.finishAuth(code);
  const client = new McpClient({ name: 'test', version: '1.0.0' }, clientOptions);
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider, page };
}
