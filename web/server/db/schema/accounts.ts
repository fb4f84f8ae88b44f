import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { ownedRow, workspaceRef } from './users.ts';

export const accountStatuses = ['active', 'needs_reconnect'] as const;

export type AccountStatus = (typeof accountStatuses)[number];

/** What the last health check found (docs/operations.md#account-health); see server/accounts/health.ts. */
export const accountHealthStates = ['ok', 'expiring', 'needs_reconnect', 'unreachable'] as const;

export type AccountHealth = (typeof accountHealthStates)[number];

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
