import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { media, posts } from './posts.ts';
import { ownedRow, workspaceRef } from './users.ts';

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
