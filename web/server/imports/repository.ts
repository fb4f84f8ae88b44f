import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { importedMedia, media, postImports, posts } from '#server/db/schema.ts';
import type { ImportRowReport } from './schema.ts';

/** The only SQL of imports: committed import reports, media fetched for imports, the posts' insert. */

export type MediaRow = typeof media.$inferSelect;
export type NewPost = typeof posts.$inferInsert;

export async function findImport(
  ctx: AppContext,
  userId: string,
  digest: string,
): Promise<ImportRowReport[] | undefined> {
  const [row] = await ctx.db
    .select({ rows: postImports.rows })
    .from(postImports)
    .where(and(eq(postImports.userId, userId), eq(postImports.digest, digest)));
  return row?.rows as ImportRowReport[] | undefined;
}

/**
 * Records the import and inserts every post in one transaction: all or nothing. Answers false,
 * writing nothing, when the same file was committed meanwhile (the unique digest decides).
 */
export async function commitImport(
  ctx: AppContext,
  record: { userId: string; digest: string; rows: ImportRowReport[] },
  newPosts: NewPost[],
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(postImports)
      .values({ id: crypto.randomUUID(), ...record, createdAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: postImports.id });
    if (inserted.length === 0) return false;
    // Chunks keep each statement's parameter count well under PostgreSQL's limit.
    for (let i = 0; i < newPosts.length; i += 200) await tx.insert(posts).values(newPosts.slice(i, i + 200));
    return true;
  });
}

/** Media an earlier import (or dry run) of this user fetched from these URLs. */
export async function importedMediaByUrl(
  ctx: AppContext,
  userId: string,
  urls: string[],
): Promise<Map<string, MediaRow>> {
  if (urls.length === 0) return new Map();
  const rows = await ctx.db
    .select({ url: importedMedia.sourceUrl, media })
    .from(importedMedia)
    .innerJoin(media, eq(media.id, importedMedia.mediaId))
    .where(and(eq(importedMedia.userId, userId), inArray(importedMedia.sourceUrl, urls)));
  return new Map(rows.map((r) => [r.url, r.media]));
}

export async function rememberImportedMedia(
  ctx: AppContext,
  userId: string,
  sourceUrl: string,
  mediaId: string,
): Promise<void> {
  await ctx.db
    .insert(importedMedia)
    .values({ userId, sourceUrl, mediaId, createdAt: new Date() })
    .onConflictDoNothing();
}
