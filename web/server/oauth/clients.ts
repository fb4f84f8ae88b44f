import { ReplyTooLargeError, readTextCapped, UnsafeUrlError } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import * as repo from './repository.ts';

export interface OAuthClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  /** Where the client's metadata came from. */
  source: 'registered' | 'metadata_document';
}

export class ClientMetadataError extends Error {
  override name = 'ClientMetadataError';
  readonly error: string;
  constructor(error: string, message: string) {
    super(message);
    this.error = error;
  }
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Redirect URIs we accept at registration: https, http on a loopback host (native apps, RFC 8252
 * §7.3), or a private-use scheme in reverse-domain form (RFC 8252 §7.1). No fragments.
 */
export function isAcceptableRedirectUri(value: string): boolean {
  if (value.length > 2000 || value.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return loopbackHosts.has(url.hostname);
  const scheme = url.protocol.slice(0, -1);
  return (
    /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+$/i.test(scheme) &&
    !['javascript', 'data', 'file', 'vbscript'].includes(scheme)
  );
}

export const RegistrationRequest = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(20),
  client_name: z.string().max(200).optional(),
  client_uri: z.string().max(2000).optional(),
  logo_uri: z.string().max(2000).optional(),
  scope: z.string().max(500).optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(200).optional(),
});

/** RFC 7591 registration of a public client (no secret: PKCE protects the code). */
export async function registerClient(ctx: AppContext, input: unknown) {
  const parsed = RegistrationRequest.safeParse(input);
  if (!parsed.success)
    throw new ClientMetadataError(
      'invalid_client_metadata',
      parsed.error.issues[0]?.message ?? 'Invalid metadata',
    );
  const m = parsed.data;
  const bad = m.redirect_uris.find((u) => !isAcceptableRedirectUri(u));
  if (bad) {
    throw new ClientMetadataError(
      'invalid_redirect_uri',
      `${bad} is not allowed: use https, http://127.0.0.1 / localhost, or a private-use scheme`,
    );
  }
  if (m.grant_types?.some((g) => !['authorization_code', 'refresh_token'].includes(g)))
    throw new ClientMetadataError(
      'invalid_client_metadata',
      'Only authorization_code and refresh_token grants',
    );
  if (m.response_types?.some((r) => r !== 'code'))
    throw new ClientMetadataError('invalid_client_metadata', 'Only the code response type');
  const id = `pwclient_${crypto.randomUUID().replaceAll('-', '')}`;
  const now = new Date();
  await repo.insertClient(ctx, {
    id,
    name: m.client_name ?? null,
    redirectUris: m.redirect_uris,
    tokenEndpointAuthMethod: 'none',
    metadata: { client_uri: m.client_uri, logo_uri: m.logo_uri, software_id: m.software_id },
    createdAt: now,
  });
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: m.client_name,
    redirect_uris: m.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'mcp',
  };
}

/** Metadata documents are cached this long before they are fetched again. */
const documentTtlMs = 60 * 60 * 1000;

export function isMetadataDocumentClientId(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === 'https:' && url.pathname !== '/' && !url.hash;
  } catch {
    return false;
  }
}

const MetadataDocument = z.object({
  client_id: z.string(),
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(z.string().max(2000)).min(1).max(20),
  token_endpoint_auth_method: z.string().optional(),
});

/** A registered client, or one identified by an HTTPS client ID metadata document (fetched SSRF-safely, cached). */
export async function findClient(ctx: AppContext, clientId: string): Promise<OAuthClient | undefined> {
  if (clientId.length > 2000) return undefined;
  const row = await repo.findClientRow(ctx, clientId);
  const isDocument = isMetadataDocumentClientId(clientId);
  if (row && !isDocument) {
    return { id: row.id, name: row.name, redirectUris: row.redirectUris, source: 'registered' };
  }
  if (!isDocument) return undefined;
  const fetchedAt = typeof row?.metadata.fetchedAt === 'number' ? row.metadata.fetchedAt : 0;
  if (row && Date.now() - fetchedAt < documentTtlMs) {
    return { id: row.id, name: row.name, redirectUris: row.redirectUris, source: 'metadata_document' };
  }
  const document = await fetchMetadataDocument(ctx, clientId);
  const values = {
    name: document.client_name ?? null,
    redirectUris: document.redirect_uris,
    metadata: { fetchedAt: Date.now() },
  };
  await repo.upsertDocumentClient(ctx, clientId, values);
  return { id: clientId, name: values.name, redirectUris: values.redirectUris, source: 'metadata_document' };
}

async function fetchMetadataDocument(ctx: AppContext, clientId: string) {
  let text: string;
  try {
    const response = await ctx.userUrlFetch(clientId, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new UnsafeUrlError('fetch_failed', `The URL answered ${response.status}`);
    }
    text = await readTextCapped(response, 64 * 1024);
  } catch (error) {
    if (error instanceof ReplyTooLargeError)
      throw new ClientMetadataError('invalid_client', 'The client metadata document is too large');
    if ((error as Error)?.name === 'TimeoutError')
      throw new ClientMetadataError('invalid_client', 'The client metadata document did not arrive in time');
    if (error instanceof UnsafeUrlError)
      throw new ClientMetadataError(
        'invalid_client',
        `The client metadata document could not be fetched: ${error.message}`,
      );
    throw error;
  }
  let parsed: z.infer<typeof MetadataDocument>;
  try {
    parsed = MetadataDocument.parse(JSON.parse(text));
  } catch {
    throw new ClientMetadataError('invalid_client', 'The client metadata document is not valid');
  }
  if (parsed.client_id !== clientId)
    throw new ClientMetadataError('invalid_client', 'The metadata document names another client_id');
  if (parsed.token_endpoint_auth_method && parsed.token_endpoint_auth_method !== 'none')
    throw new ClientMetadataError('invalid_client', 'Only public clients (token_endpoint_auth_method none)');
  if (parsed.redirect_uris.some((u) => !isAcceptableRedirectUri(u)))
    throw new ClientMetadataError(
      'invalid_client',
      'The metadata document lists a redirect URI we do not accept',
    );
  return parsed;
}
