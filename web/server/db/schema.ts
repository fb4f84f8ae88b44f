/**
 * The database schema, one file per resource under `schema/` (drizzle-kit reads this barrel).
 * A new resource adds its file there and one line here.
 */
export * from './schema/accounts.ts';
export * from './schema/analytics.ts';
export * from './schema/audit.ts';
export * from './schema/auth.ts';
export * from './schema/comments.ts';
export * from './schema/feeds.ts';
export * from './schema/limits.ts';
export * from './schema/links.ts';
export * from './schema/posts.ts';
export * from './schema/reviews.ts';
export * from './schema/snippets.ts';
export * from './schema/templates.ts';
export * from './schema/users.ts';
export * from './schema/webhooks.ts';
