import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { posts } from './posts.ts';
import { users, workspaceRef } from './users.ts';

export const commentAuthorTypes = ['member', 'reviewer'] as const;
export type CommentAuthorType = (typeof commentAuthorTypes)[number];

/** Comments on a post: by members, or by clients through a review link (`reviewer`, a typed name). */
export const postComments = pgTable(
  'post_comments',
  {
    id: uuid('id').primaryKey(),
    workspaceId: workspaceRef(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    authorType: text('author_type').$type<CommentAuthorType>().notNull(),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('post_comments_post_created').on(t.postId, t.createdAt)],
);
