import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import type { StoredMedia, StoredOverride, StoredThreadPart } from './posts.ts';
import { ownedRow } from './users.ts';

/**
 * A workspace's post template (docs/library.md#templates): the content of a post without its
 * timing. Media are stored resolved, like a post's; a post made from a template copies the
 * content, so editing or deleting the template never changes that post.
 */
export const templates = pgTable(
  'templates',
  {
    ...ownedRow(),
    name: text('name').notNull(),
    message: text('message').notNull(),
    accountIds: jsonb('account_ids').$type<string[]>().notNull(),
    media: jsonb('media').$type<StoredMedia[]>().notNull(),
    accountOptions: jsonb('account_options').$type<Record<string, Record<string, unknown>>>().notNull(),
    overrides: jsonb('overrides').$type<Record<string, StoredOverride>>().notNull(),
    thread: jsonb('thread').$type<StoredThreadPart[]>().notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('templates_workspace_name').on(t.workspaceId, t.name)],
);
