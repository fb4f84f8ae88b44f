import type { MediaObject } from '@postwave/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { media } from '#server/db/schema.ts';

/** The only SQL for media: which stored files exist and whose they are. */

export type MediaRow = typeof media.$inferSelect;

export async function insertMedia(
  ctx: AppContext,
  workspaceId: string,
  object: MediaObject,
): Promise<MediaRow> {
  const [row] = await ctx.db
    .insert(media)
    .values({
      id: crypto.randomUUID(),
      workspaceId,
      key: object.key,
      filename: object.filename,
      contentType: object.contentType,
      size: object.size,
      storage: object.storage,
      createdAt: new Date(),
    })
    .returning();
  return row!;
}

export async function mediaByKey(ctx: AppContext, key: string): Promise<MediaRow | undefined> {
  const [row] = await ctx.db.select().from(media).where(eq(media.key, key));
  return row;
}

/** This user's media rows for the given keys. */
export async function ownedMedia(
  ctx: AppContext,
  workspaceId: string,
  keys: string[],
): Promise<Map<string, MediaRow>> {
  if (keys.length === 0) return new Map();
  const rows = await ctx.db
    .select()
    .from(media)
    .where(and(eq(media.workspaceId, workspaceId), inArray(media.key, keys)));
  return new Map(rows.map((r) => [r.key, r]));
}
