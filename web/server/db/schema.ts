import type { TargetDetails } from '@postwave/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Timestamps are written from JavaScript (millisecond precision) wherever they take part in
 * keyset pagination, so a cursor round-trips exactly.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const accountStatuses = ['active', 'needs_reconnect'] as const;
export type AccountStatus = (typeof accountStatuses)[number];
/** What the last health check found (docs/operations.md#account-health); see server/accounts/health.ts. */
export const accountHealthStates = ['ok', 'expiring', 'needs_reconnect', 'unreachable'] as const;
export type AccountHealth = (typeof accountHealthStates)[number];
export const postStatuses = ['draft', 'scheduled', 'posted', 'failed'] as const;
export type PostStatus = (typeof postStatuses)[number];
/**
 * `publishing` is the publish intent, written before the platform is called; `unknown` is an
 * intent whose outcome was lost on a platform that can neither dedupe a resend nor look it up.
 */
export const targetStatuses = ['publishing', 'posted', 'failed', 'unknown'] as const;
export type TargetStatus = (typeof targetStatuses)[number];
export const apiTokenKinds = ['personal', 'cli'] as const;
export type ApiTokenKind = (typeof apiTokenKinds)[number];

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name'),
  /** scrypt hash; null for users who only sign in through GitHub or Google. */
  passwordHash: text('password_hash'),
  timezone: text('timezone').notNull().default('UTC'),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
  /** Browser sessions that began before this instant are refused (set when the password is reset). */
  sessionsValidAfter: ts('sessions_valid_after'),
  /**
   * When the user proved they read mail sent to `email` (verification link, password reset, or a
   * provider that verified it). Null: an unverified password sign-up (see docs/security-scheduler.md).
   */
  emailVerifiedAt: ts('email_verified_at'),
  /** The browser session's current workspace (`POST /api/v1/workspaces/{id}/switch`). */
  currentWorkspaceId: uuid('current_workspace_id'),
});

export const workspaceRoles = ['owner', 'admin', 'editor', 'contributor', 'viewer'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/** What a workspace's `settings` column holds (validated by server/workspaces/schema.ts). */
export interface StoredWorkspaceSettings {
  approvals?: 'off' | 'contributors' | 'everyone';
  timezone?: string;
  assistantsRequireApproval?: boolean;
}

/**
 * A workspace owns every resource (docs/workspaces.md): accounts, posts, media, queues, feeds,
 * webhooks, tokens and settings. Every user has at least a personal one.
 */
export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  settings: jsonb('settings').$type<StoredWorkspaceSettings>().notNull().default({}),
  createdAt: ts('created_at').notNull(),
});

/** Who belongs to a workspace, with which role (contract section G's role table). */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<WorkspaceRole>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('workspace_members_user').on(t.userId)],
);

/** Invitations by e-mail; the link's token is stored only as a SHA-256 hash. */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<WorkspaceRole>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('workspace_invitations_workspace').on(t.workspaceId, t.createdAt)],
);

/** The owning workspace: rows go when their workspace does. */
const workspaceRef = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** The owning user: rows go when their user does. */
const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** A row of its own (random UUID) that belongs to one workspace. */
const ownedRow = () => ({ id: uuid('id').primaryKey(), workspaceId: workspaceRef() });
/** The member a workspace's row belongs to (a token's member): the row goes with its user. */
const memberRow = () => ({ ...ownedRow(), userId: ownerId() });

/** Single-use e-mail verification links, hashed (SHA-256); the address they were sent to must still match. */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: ownerId(),
    email: text('email').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('email_verification_tokens_user').on(t.userId, t.createdAt)],
);

/** Single-use password reset links, hashed (SHA-256), valid for a short while. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: ownerId(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('password_reset_tokens_user').on(t.userId, t.createdAt)],
);

/** Sign-in identities from OAuth providers (GitHub, Google), linked to a user. */
export const userIdentities = pgTable(
  'user_identities',
  {
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    userId: ownerId(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    index('user_identities_user').on(t.userId),
  ],
);

/**
 * The credentials one login granted, shared by every account it connected (several boards, pages
 * or locations of one user): a refreshed or rotated token is stored once and serves them all.
 * One per user, platform and `grant_key` (the connector's `ConnectableAccount.grantKey`, e.g. the
 * platform's user id); removed with its last account. `credentials` is ciphertext like accounts'.
 */
export const accountGrants = pgTable(
  'account_grants',
  {
    ...ownedRow(),
    platform: text('platform').notNull(),
    grantKey: text('grant_key').notNull(),
    credentials: text('credentials').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('account_grants_workspace_platform_key').on(t.workspaceId, t.platform, t.grantKey)],
);

/**
 * Connected social accounts. `credentials` is AES-256-GCM ciphertext that names its key id; null
 * when the account uses its grant's (`grant_id`).
 */
export const accounts = pgTable(
  'accounts',
  {
    ...ownedRow(),
    platform: text('platform').notNull(),
    platformAccountId: text('platform_account_id').notNull(),
    label: text('label'),
    username: text('username'),
    profilePicture: text('profile_picture'),
    credentials: text('credentials'),
    grantId: uuid('grant_id').references(() => accountGrants.id),
    status: text('status').$type<AccountStatus>().notNull().default('active'),
    health: text('health').$type<AccountHealth>().notNull().default('ok'),
    /** Why the health is what it is, in words for the user (never the platform's raw reply). */
    healthReason: text('health_reason'),
    healthCheckedAt: ts('health_checked_at'),
    /** A health check in progress holds the account until then, so instances never check it twice. */
    healthLeaseUntil: ts('health_lease_until'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('accounts_workspace_platform_target').on(t.workspaceId, t.platform, t.platformAccountId),
    index('accounts_workspace_created').on(t.workspaceId, t.createdAt),
    index('accounts_health_checked').on(t.healthCheckedAt),
    index('accounts_grant').on(t.grantId),
    check('accounts_credentials_or_grant', sql`${t.credentials} IS NOT NULL OR ${t.grantId} IS NOT NULL`),
  ],
);

/** Media a user uploaded or reserved through presign; a post may only reference its owner's keys. */
export const media = pgTable(
  'media',
  {
    ...ownedRow(),
    key: text('key').notNull().unique(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storage: text('storage').$type<'local' | 's3'>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('media_workspace').on(t.workspaceId)],
);

/** A type alias (not an interface) so it is assignable to the SDK's loose MediaReference. */
export type StoredMedia = {
  id: string;
  key: string;
  url: string;
  filename: string;
  contentType: string;
  size: number;
  storage: 'local' | 's3';
  /** The alt text given with the post for this file (docs/composer-fields.md). */
  altText?: string;
};

/** One account's version of a post (`overrides[accountId]`): a given field replaces the base post's. */
export type StoredOverride = { message?: string; media?: StoredMedia[] };

/** One thread part after the first message. */
export type StoredThreadPart = { message: string; media: StoredMedia[] };

/**
 * A step of a target that reached the platform, or the one that failed: `replyRef` (opaque, the
 * platform's reply reference) is what lets a retry continue the chain after it.
 */
export type StoredStep = {
  status: 'posted' | 'failed' | 'pending' | 'unknown';
  platformPostId?: string;
  url?: string;
  replyRef?: string;
  error?: { code: string; message: string; retryable: boolean; hint?: string };
  details?: TargetDetails;
};
export type StoredPart = StoredStep & { index: number };

/** A scheduled post's problem found before its due time: what, which account, what to do. */
export type PostRisk = { code: string; message: string; hint: string; accountId?: string; checkedAt: string };

export const posts = pgTable(
  'posts',
  {
    ...ownedRow(),
    /**
     * The member who wrote it (a contributor edits only their own posts; no self-approval); null
     * for posts a feed created, or once the author's user is gone.
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<PostStatus>().notNull(),
    message: text('message').notNull(),
    accountIds: jsonb('account_ids').$type<string[]>().notNull(),
    media: jsonb('media').$type<StoredMedia[]>().notNull(),
    accountOptions: jsonb('account_options').$type<Record<string, Record<string, unknown>>>().notNull(),
    /** Per-account versions, keyed by account id (only ids among `account_ids`). */
    overrides: jsonb('overrides').$type<Record<string, StoredOverride>>().notNull().default({}),
    /** Parts after the first message, published as a reply chain. */
    thread: jsonb('thread').$type<StoredThreadPart[]>().notNull().default([]),
    scheduledAt: ts('scheduled_at'),
    postedAt: ts('posted_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** When dispatch may next pick the post up: scheduledAt, then later for retries. */
    nextAttemptAt: ts('next_attempt_at'),
    /** Who is publishing the post right now, until when. An expired lease may be taken over. */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    /** Publishing rounds so far (dispatch retries give up after a limit). */
    attempts: integer('attempts').notNull().default(0),
    /** What the last pre-flight check found wrong (docs/dispatch.md#pre-flight); null when all was well. */
    risk: jsonb('risk').$type<PostRisk>(),
    /** When the pre-flight check last claimed the post (null: not checked since it was scheduled). */
    preflightCheckedAt: ts('preflight_checked_at'),
  },
  (t) => [
    // Ascending on purpose: scanned backwards they give `created_at DESC, id DESC` (NULLS FIRST,
    // the default the list query orders by); a `DESC NULLS LAST` index would not serve it.
    index('posts_workspace_created_id').on(t.workspaceId, t.createdAt, t.id),
    index('posts_workspace_status_created_id').on(t.workspaceId, t.status, t.createdAt, t.id),
    index('posts_due').on(t.status, t.nextAttemptAt).where(sql`${t.status} = 'scheduled'`),
  ],
);

/**
 * One row per post and account once publishing to it starts. The primary key, and the guarded
 * upsert that claims a row, are what keep a target from ever being posted twice.
 */
export const postTargets = pgTable(
  'post_targets',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    status: text('status').$type<TargetStatus>().notNull(),
    platformPostId: text('platform_post_id'),
    url: text('url'),
    error: jsonb('error').$type<{ code: string; message: string; retryable: boolean }>(),
    claimOwner: text('claim_owner'),
    /** The platform's dedupe handle chosen before the send (Bluesky record key), for a safe resume. */
    dedupeHandle: text('dedupe_handle'),
    /**
     * A thread's parts as far as they went (index 0: the first message), with their reply
     * references: a retry continues after the posted ones. Null for a post without a thread.
     * While the target is `publishing`, `dedupe_handle` belongs to the first part not posted.
     */
    parts: jsonb('parts').$type<StoredPart[]>(),
    /** The first comment's outcome, once it was tried or posted; null when none was asked for. */
    firstComment: jsonb('first_comment').$type<StoredStep>(),
    /** What the platform reported beyond the post id (per-relay answers), as the SDK returned it. */
    details: jsonb('details').$type<TargetDetails>(),
    attempts: integer('attempts').notNull().default(0),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.accountId] }), index('post_targets_account').on(t.accountId)],
);

export const stagingStatuses = ['staging', 'staged', 'stage_failed'] as const;
export type StagingStatus = (typeof stagingStatuses)[number];

/**
 * Media uploaded to a platform ahead of a scheduled post's due time (`Publisher.stage`), one row
 * per target: `staging` while a dispatcher holds the lease and uploads, `staged` with the
 * publisher's handle and when the platform forgets it, `stage_failed` (the due-time publish then
 * uploads as usual). Apart from `post_targets` on purpose: a staged target has no publish intent.
 */
export const postStagings = pgTable(
  'post_stagings',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    status: text('status').$type<StagingStatus>().notNull(),
    /** The publisher's opaque handle (media ids, a container id), passed back as `context.staged`. */
    handle: text('handle'),
    expiresAt: ts('expires_at'),
    /** A digest of what was staged (message, media, options): a handle of other content is never used. */
    contentKey: text('content_key').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    error: jsonb('error').$type<{ code: string; message: string; retryable: boolean }>(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.accountId] })],
);

/**
 * Staged uploads to remove from the platform (`Publisher.discardStaged`): a staged private YouTube
 * video or unpublished Facebook video whose post was edited, deleted, moved back to draft, or whose
 * staging was dropped. Apart from `post_stagings` on purpose: the post may be gone (a delete) or
 * staged again for the same account (an edit) while its old upload still waits to be removed.
 * The staging pass sweeps rows whose `next_attempt_at` has come; a sweep holds a row by moving
 * that time past its lease, and backs off after a failure.
 */
export const stagedDiscards = pgTable(
  'staged_discards',
  {
    id: uuid('id').primaryKey(),
    workspaceId: workspaceRef(),
    /** No foreign key: an account removed since leaves nothing to discard with (the row is dropped). */
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    handle: text('handle').notNull(),
    /** The post it was staged for (perhaps deleted since), for logs. */
    postId: uuid('post_id').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    lastError: jsonb('last_error').$type<{ code: string; message: string; retryable: boolean }>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('staged_discards_due').on(t.nextAttemptAt)],
);

export const postEventActors = ['user', 'assistant', 'api', 'system'] as const;
export type PostEventActor = (typeof postEventActors)[number];

/**
 * A post's timeline (docs/dispatch.md#timeline): every step, oldest first. State changes (created,
 * updated, scheduled, each attempt at a platform with its outcome, posted, failed, resolved) are
 * written by database triggers on `posts` and `post_targets` (migration 0020), so each event
 * commits with the state it describes whatever code path wrote it, batched with the dispatcher's
 * own statements. Assistants' requests (an MCP client's name in `actor_name`) are written by the
 * MCP actor. `action` holds the event's type.
 */
export const postEvents = pgTable(
  'post_events',
  {
    id: uuid('id').primaryKey(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** The post's author when the event was written (null once that user is gone); scoping is by the post's workspace. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who acted; null where the writer did not say (see the triggers). */
    actor: text('actor').$type<PostEventActor>(),
    /** The MCP client's name (or the API token's) that acted; null for the user in the browser. */
    actorName: text('actor_name'),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** The target's account, for attempts and per-account outcomes. */
    accountId: text('account_id'),
    /** The thread part an attempt sent (0: the message). */
    part: integer('part'),
    /** Which attempt of the target this was (1 first). */
    attempt: integer('attempt'),
    /** An attempt's or resolution's outcome: posted, failed or unknown. */
    outcome: text('outcome'),
    error: jsonb('error').$type<{
      code: string;
      message: string;
      retryable: boolean;
      platformStatus?: number;
    }>(),
    createdAt: ts('created_at').notNull(),
    /** Insertion order: events of one statement share their time. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('post_events_post').on(t.postId, t.createdAt)],
);

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

/** Short-lived state of an OAuth account connection (e.g. YouTube), bound to the user who started it. */
export const connectStates = pgTable('connect_states', {
  stateHash: text('state_hash').primaryKey(),
  /** Bound to the workspace it was started in: only a session acting there may finish it. */
  workspaceId: workspaceRef(),
  platform: text('platform').notNull(),
  /** PKCE verifier, encrypted like credentials (an empty secret for platforms without PKCE). */
  codeVerifier: text('code_verifier').notNull(),
  /** What the connector's `startAuthorization` asked to keep for the callback, encrypted likewise. */
  secret: text('secret'),
  /** Set when the flow reconnects this account: only the same platform account may answer. */
  accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull(),
});

/**
 * The accounts one login reached (several pages, organizations or profiles), waiting for the user
 * to pick which to connect. Bound to the user, single use, 10 minutes; the list is encrypted
 * because it carries each account's credentials.
 */
export const connectPending = pgTable('connect_pending', {
  tokenHash: text('token_hash').primaryKey(),
  workspaceId: workspaceRef(),
  platform: text('platform').notNull(),
  accounts: text('accounts').notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull(),
});

export const limitGrantKinds = ['slot', 'rate'] as const;
export type LimitGrantKind = (typeof limitGrantKinds)[number];

/**
 * Publish limits shared by every instance on PostgreSQL (docs/dispatch.md): one row per key of a live
 * grant. A `slot` lives until released or until its lease runs out (renewed while held, so a dead
 * instance's slots free themselves); a `rate` row lives its window. `postwave_acquire_limits()`
 * (in the migration) checks and takes a batch of grants in one round trip.
 */
export const publishLimitGrants = pgTable(
  'publish_limit_grants',
  {
    grantId: uuid('grant_id').notNull(),
    key: text('key').notNull(),
    kind: text('kind').$type<LimitGrantKind>().notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.grantId, t.key] }),
    index('publish_limit_grants_key').on(t.key, t.expiresAt),
  ],
);

/**
 * A committed bulk import, one row per user and file digest (SHA-256 of the body): importing the
 * same file again answers the stored report instead of creating the posts twice.
 */
export const postImports = pgTable(
  'post_imports',
  {
    ...ownedRow(),
    digest: text('digest').notNull(),
    /** The committed report: `[{ index, valid, errors, postId }]`. */
    rows: jsonb('rows')
      .$type<{ index: number; valid: boolean; errors: unknown[]; postId?: string }[]>()
      .notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('post_imports_workspace_digest').on(t.workspaceId, t.digest)],
);

/**
 * Media fetched from a URL by an import, so a dry run and its commit (or a second import of the
 * same file) reuse one stored copy instead of downloading it again.
 */
export const importedMedia = pgTable(
  'imported_media',
  {
    workspaceId: workspaceRef(),
    sourceUrl: text('source_url').notNull(),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.sourceUrl] })],
);

/** `queue`: each item takes the next free slot of the accounts' queues. */
export const feedModes = ['draft', 'now', 'queue'] as const;
export type FeedMode = (typeof feedModes)[number];

/**
 * An RSS/Atom/JSON feed whose new items become posts to `accountIds` (the feed's "account group").
 * Polled in-process; `lease_*` keep two instances from polling one feed at once.
 */
export const feeds = pgTable(
  'feeds',
  {
    ...ownedRow(),
    url: text('url').notNull(),
    name: text('name'),
    accountIds: jsonb('account_ids').$type<string[]>().notNull(),
    template: text('template').notNull(),
    mode: text('mode').$type<FeedMode>().notNull(),
    intervalMinutes: integer('interval_minutes').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Conditional GET validators from the last 200 answer. */
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** False until the first successful poll, which marks existing items seen without posting. */
    primed: boolean('primed').notNull().default(false),
    lastPolledAt: ts('last_polled_at'),
    lastStatus: text('last_status'),
    lastError: text('last_error'),
    nextPollAt: ts('next_poll_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('feeds_workspace_created').on(t.workspaceId, t.createdAt),
    index('feeds_due').on(t.nextPollAt),
  ],
);

/** Items a feed has seen, by guid/id (else link): an item becomes at most one post. */
export const feedItems = pgTable(
  'feed_items',
  {
    feedId: uuid('feed_id')
      .notNull()
      .references(() => feeds.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    seenAt: ts('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.itemId] })],
);

/**
 * Queue (docs/web-ui.md#queue-and-calendar): an account's weekly posting slots in an IANA zone. No row means
 * an empty queue. `postingMode: "queue"` schedules a post at the next slot no scheduled post of the account
 * holds.
 */
export const accountQueues = pgTable('account_queues', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  workspaceId: workspaceRef(),
  timezone: text('timezone').notNull(),
  slots: jsonb('slots').$type<{ weekday: number; time: string }[]>().notNull(),
  updatedAt: ts('updated_at').notNull(),
});
export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * A user's webhook endpoint. `secret` (and during a rotation's 24-hour overlap
 * `previousSecret`) are encrypted like account credentials. `failingSince` is the first failed
 * attempt of the current run of failures (any success clears it); a day of it disables the
 * endpoint (`disabledAt`, `disabledReason`) until the user turns it on again.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    ...ownedRow(),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    failingSince: ts('failing_since'),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_workspace').on(t.workspaceId, t.createdAt)],
);

/**
 * One event for one endpoint: the durable outbox. A row is written in the same transaction as
 * the change it reports where the caller has one; the worker claims due rows with a lease
 * (`FOR UPDATE SKIP LOCKED`), so instances never send one twice at once and a dead worker's
 * claims are taken over when the lease runs out. `retries` counts the schedule steps used.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
    /** `webhook-id`: the same for every attempt and redelivery of this message. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact JSON body that is signed and sent. */
    body: text('body').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    retries: integer('retries').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** Every attempt of a delivery: when, the receiver's status, how long it took, and why it failed. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: ts('attempted_at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /** The start of the reply (2 KiB at most). */
    responseBody: text('response_body'),
  },
  (t) => [index('webhook_delivery_attempts_delivery').on(t.deliveryId, t.attemptedAt)],
);

/*
 * Post analytics (docs/analytics.md, contract section H). Keyed on post targets and accounts, never
 * on an owner: who may read them follows from the post or account they belong to.
 */
/**
 * `collecting` on schedule; `done` after its last collection (+30 d); `gone` when the platform
 * deleted the post; `unsupported` when its platform reports no post metrics (it still counts as a post).
 */
export const metricsStates = ['collecting', 'done', 'gone', 'unsupported'] as const;
export type MetricsState = (typeof metricsStates)[number];

/**
 * One row per posted target of a platform that reports post metrics: its latest figures (the
 * rollup every summary reads, so a summary never scans the history), where its schedule stands
 * (`step` collections made, the next at `next_collect_at`), and the collector's lease.
 */
export const targetMetrics = pgTable(
  'target_metrics',
  {
    postId: uuid('post_id').notNull(),
    accountId: text('account_id').notNull(),
    platform: text('platform').notNull(),
    postedAt: ts('posted_at').notNull(),
    state: text('state').$type<MetricsState>().notNull().default('collecting'),
    step: integer('step').notNull().default(0),
    nextCollectAt: ts('next_collect_at'),
    metrics: jsonb('metrics').$type<Record<string, number>>().notNull().default({}),
    /** likes + comments + reposts + quotes + shares + saves + clicks of the latest figures. */
    engagement: integer('engagement'),
    impressions: integer('impressions'),
    collectedAt: ts('collected_at'),
    /** The last collection a person asked for (`POST /posts/{id}/metrics/refresh`), at most one per 5 minutes. */
    refreshedAt: ts('refreshed_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.accountId] }),
    foreignKey({
      columns: [t.postId, t.accountId],
      foreignColumns: [postTargets.postId, postTargets.accountId],
    }).onDelete('cascade'),
    index('target_metrics_due').on(t.nextCollectAt).where(sql`${t.state} = 'collecting'`),
    index('target_metrics_account_posted').on(t.accountId, t.postedAt),
  ],
);

/**
 * Sums of `target_metrics` per account and quarter hour of posting (UTC-aligned, so days in every
 * timezone, half- and quarter-hour offsets included, are whole buckets): what summaries and
 * series add up, about 3,000 rows per account and month however many posts. Kept by collection
 * for the buckets it touched; a metric column is null when no target of the bucket reported it.
 */
export const metricRollups = pgTable(
  'metric_rollups',
  {
    accountId: text('account_id').notNull(),
    bucket: ts('bucket').notNull(),
    posts: integer('posts').notNull(),
    engagement: bigint('engagement', { mode: 'number' }),
    impressions: bigint('impressions', { mode: 'number' }),
    reach: bigint('reach', { mode: 'number' }),
    views: bigint('views', { mode: 'number' }),
    likes: bigint('likes', { mode: 'number' }),
    comments: bigint('comments', { mode: 'number' }),
    reposts: bigint('reposts', { mode: 'number' }),
    quotes: bigint('quotes', { mode: 'number' }),
    shares: bigint('shares', { mode: 'number' }),
    saves: bigint('saves', { mode: 'number' }),
    clicks: bigint('clicks', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.bucket] })],
);

/** Every collection of a target's figures, for its history. */
export const metricSnapshots = pgTable(
  'metric_snapshots',
  {
    postId: uuid('post_id').notNull(),
    accountId: text('account_id').notNull(),
    collectedAt: ts('collected_at').notNull(),
    metrics: jsonb('metrics').$type<Record<string, number>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.accountId, t.collectedAt] }),
    foreignKey({
      columns: [t.postId, t.accountId],
      foreignColumns: [targetMetrics.postId, targetMetrics.accountId],
    }).onDelete('cascade'),
  ],
);

/** An account's own figures, one row per UTC day (the last collection of the day wins). */
export const accountMetrics = pgTable(
  'account_metrics',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    followers: integer('followers'),
    collectedAt: ts('collected_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** When each account's followers are next collected, and the collector's lease. */
export const accountMetricSchedule = pgTable(
  'account_metric_schedule',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    nextCollectAt: ts('next_collect_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
  },
  (t) => [index('account_metric_schedule_due').on(t.nextCollectAt)],
);
