import { integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { posts } from './posts.ts';
import { workspaces } from './users.ts';

/**
 * A workspace's tracked links (docs/links.md): UTM parameters and its URL shortener. The API key
 * is encrypted like account credentials, bound to the workspace (it never decrypts elsewhere),
 * and is never answered back. Its own table, so no settings answer can carry it by mistake.
 */
export const workspaceLinkSettings = pgTable('workspace_link_settings', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  utm: jsonb('utm').$type<{ source?: string; medium?: string; campaign?: string }>(),
  provider: text('provider').$type<'shlink' | 'dub' | 'kutt'>(),
  apiUrl: text('api_url'),
  apiKey: text('api_key'),
  domain: text('domain'),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * Each link of a target as it was tracked, one row per post, account and link as written: the
 * short link is made once and reused by every later attempt of the same target (a retry, a second
 * dispatch), so its clicks count for that network alone. `warning` says why a link was posted long.
 */
export const targetLinks = pgTable(
  'target_links',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    url: text('url').notNull(),
    longUrl: text('long_url').notNull(),
    shortUrl: text('short_url'),
    /** The shortener that made it, and its handle on the link (for clicks). */
    provider: text('provider'),
    ref: text('ref'),
    warning: jsonb('warning').$type<{ code: string; message: string }>(),
    /** The shortener's last click count, from analytics collection. */
    clicks: integer('clicks'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.accountId, t.url] })],
);
