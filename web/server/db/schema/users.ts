import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

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
export const workspaceRef = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** The owning user: rows go when their user does. */
export const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** A row of its own (random UUID) that belongs to one workspace. */
export const ownedRow = () => ({ id: uuid('id').primaryKey(), workspaceId: workspaceRef() });

/** The member a workspace's row belongs to (a token's member): the row goes with its user. */
export const memberRow = () => ({ ...ownedRow(), userId: ownerId() });

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
