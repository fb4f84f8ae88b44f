import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import { importedMedia, media, postImports } from '#server/db/schema.ts';
import type { ImportRowReport } from './schema.ts';

/**
 * The only SQL of imports: committed import reports and media fetched for imports. The posts an
 * import creates are written by the posts resource (`insertPosts`), in this commit's transaction.
 */

export type MediaRow = typeof media.$inferSelect;

export async function findImport(
  ctx: AppContext,
  workspaceId: string,
  digest: string,
): Promise<ImportRowReport[] | undefined> {
  const [row] = await ctx.db
    .select({ rows: postImports.rows })
    .from(postImports)
    .where(and(eq(postImports.workspaceId, workspaceId), eq(postImports.digest, digest)));
  return row?.rows as ImportRowReport[] | undefined;
}

/**
 * Records the import and runs `createPosts` in the same transaction: all or nothing (a throw rolls
 * both back). Answers false, writing nothing, when the same file was committed meanwhile (the
 * unique digest decides). The record is written last, so it holds the reports as `createPosts`
 * completed them.
 */
export async function commitImport(
  ctx: Db,
  record: { workspaceId: string; digest: string; rows: () => ImportRowReport[] },
  createPosts: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const id = crypto.randomUUID();
    const claimed = await tx.db
      .insert(postImports)
      .values({ id, workspaceId: record.workspaceId, digest: record.digest, rows: [], createdAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: postImports.id });
    if (claimed.length === 0) return false;
    await createPosts(tx);
    await tx.db.update(postImports).set({ rows: record.rows() }).where(eq(postImports.id, id));
    return true;
  });
}

/** Media an earlier import (or dry run) of this user fetched from these URLs. */
export async function importedMediaByUrl(
  ctx: AppContext,
  workspaceId: string,
  urls: string[],
): Promise<Map<string, MediaRow>> {
  if (urls.length === 0) return new Map();
  const rows = await ctx.db
    .select({ url: importedMedia.sourceUrl, media })
    .from(importedMedia)
    .innerJoin(media, eq(media.id, importedMedia.mediaId))
    .where(and(eq(importedMedia.workspaceId, workspaceId), inArray(importedMedia.sourceUrl, urls)));
  return new Map(rows.map((r) => [r.url, r.media]));
}

export async function rememberImportedMedia(
  ctx: AppContext,
  workspaceId: string,
  sourceUrl: string,
  mediaId: string,
): Promise<void> {
  await ctx.db
    .insert(importedMedia)
    .values({ workspaceId, sourceUrl, mediaId, createdAt: new Date() })
    .onConflictDoNothing();
}
