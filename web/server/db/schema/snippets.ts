import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';
import { ownedRow, workspaceRef } from './users.ts';

export const snippetKinds = ['signature', 'hashtags', 'text'] as const;
export type SnippetKind = (typeof snippetKinds)[number];

/** A reusable piece of text the composer inserts (docs/library.md#snippets). */
export const snippets = pgTable(
  'snippets',
  {
    ...ownedRow(),
    name: text('name').notNull(),
    kind: text('kind').$type<SnippetKind>().notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('snippets_workspace_name').on(t.workspaceId, t.name)],
);

/**
 * Which signature an account starts with. The account id is the key, so an account has at most
 * one default signature; rows go with their account or their snippet.
 */
export const snippetDefaults = pgTable(
  'snippet_defaults',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    snippetId: uuid('snippet_id')
      .notNull()
      .references(() => snippets.id, { onDelete: 'cascade' }),
    workspaceId: workspaceRef(),
  },
  (t) => [index('snippet_defaults_snippet').on(t.snippetId)],
);
