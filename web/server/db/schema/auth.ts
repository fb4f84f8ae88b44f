import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { memberRow, ownerId, workspaceRef } from './users.ts';

export const apiTokenKinds = ['personal', 'cli'] as const;

export type ApiTokenKind = (typeof apiTokenKinds)[number];

/**
 * `Idempotency-Key` claims and answers, one row per user and key. A row with no status is a claim
 * still running until `expires_at` (a lease, in case its instance died); a finished row keeps the
 * answer's exact bytes for 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    workspaceId: workspaceRef(),
    userId: ownerId(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer('response_status'),
    responseContentType: text('response_content_type'),
    /** The body as sent (text, not jsonb, so a replay is byte for byte the same). */
    responseBody: text('response_body'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull().default(sql`now() + interval '1 day'`),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.key] }),
    index('idempotency_keys_expires').on(t.expiresAt),
  ],
);

/**
 * Personal and CLI bearer tokens of one member, bound to one workspace at creation; only a
 * SHA-256 of the secret is stored.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    ...memberRow(),
    name: text('name').notNull(),
    kind: text('kind').$type<ApiTokenKind>().notNull().default('personal'),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    index('api_tokens_user').on(t.userId, t.createdAt),
    index('api_tokens_workspace').on(t.workspaceId, t.userId),
  ],
);

/** Single-use codes of the CLI loopback flow (PKCE), hashed. */
export const cliAuthorizationCodes = pgTable('cli_authorization_codes', {
  codeHash: text('code_hash').primaryKey(),
  userId: ownerId(),
  /** The workspace the person picked on the authorization page; the token is bound to it. */
  workspaceId: workspaceRef(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  deviceName: text('device_name'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull(),
});

/** MCP OAuth: dynamically registered clients (RFC 7591). */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name'),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull().default('none'),
  clientSecretHash: text('client_secret_hash'),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull(),
});

/** The OAuth client a row was issued to: rows go when the client does. */
const clientRef = () =>
  text('client_id')
    .notNull()
    .references(() => oauthClients.id, { onDelete: 'cascade' });

export const oauthAuthorizationCodes = pgTable('oauth_authorization_codes', {
  codeHash: text('code_hash').primaryKey(),
  clientId: clientRef(),
  userId: ownerId(),
  /** The workspace picked on the consent screen; the grant acts in it only. */
  workspaceId: workspaceRef(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  scope: text('scope'),
  resource: text('resource'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  /** The token family the code was exchanged for: a replayed code revokes it. */
  familyId: uuid('family_id'),
  createdAt: ts('created_at').notNull(),
});

/**
 * MCP OAuth access and refresh tokens, hashed. A refresh rotates the pair (new row, old revoked);
 * every row of one authorization shares `familyId`, so a reused refresh token revokes its chain only.
 */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: uuid('id').primaryKey(),
    clientId: clientRef(),
    userId: ownerId(),
    workspaceId: workspaceRef(),
    accessTokenHash: text('access_token_hash').notNull().unique(),
    refreshTokenHash: text('refresh_token_hash').unique(),
    scope: text('scope'),
    resource: text('resource'),
    accessExpiresAt: ts('access_expires_at').notNull(),
    refreshExpiresAt: ts('refresh_expires_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull(),
    /** When the access token last authenticated a request (updated at most every few minutes). */
    lastUsedAt: ts('last_used_at'),
    /** One authorization and its refresh rotations (null on rows issued before families existed). */
    familyId: uuid('family_id'),
  },
  (t) => [
    index('oauth_tokens_user').on(t.userId),
    index('oauth_tokens_workspace').on(t.workspaceId, t.userId),
    index('oauth_tokens_family').on(t.familyId),
  ],
);
