import { boolean, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { posts } from './posts.ts';
import { ownedRow, users } from './users.ts';

/**
 * Client review links (docs/workspaces.md#review-links): a random token in the url, stored only
 * as its SHA-256; expiring and revocable. They go with their post.
 */
export const reviewLinks = pgTable(
  'review_links',
  {
    ...ownedRow(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** Whether the client may approve or request changes (else preview and comments only). */
    allowDecision: boolean('allow_decision').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('review_links_post').on(t.postId)],
);
