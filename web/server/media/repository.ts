import type { MediaObject } from '@postwave/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction, rowsOf } from '#server/db/access.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import { media, posts } from '#server/db/schema.ts';
import type { MediaKind } from './schema.ts';
import type { Inspection } from './thumbnail.ts';

/** The only SQL for media: which stored files exist, whose they are, and the library's metadata. */

export type MediaRow = typeof media.$inferSelect;

/**
 * Records a stored file. With a `sha256` the workspace already has, nothing is inserted and
 * `undefined` is returned (the partial unique index decides, so two racing uploads of the same
 * bytes still leave one row).
 */
export async function insertMedia(
  ctx: AppContext,
  workspaceId: string,
  object: MediaObject,
  sha256?: string,
): Promise<MediaRow | undefined> {
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
      sha256: sha256 ?? null,
      // Bytes that streamed through the Scheduler are inspected with the upload itself.
      inspectedAt: sha256 ? new Date() : null,
    })
    .onConflictDoNothing({
      target: [media.workspaceId, media.sha256],
      where: sql`${media.sha256} is not null`,
    })
    .returning();
  return row;
}

export async function mediaBySha256(
  ctx: AppContext,
  workspaceId: string,
  sha256: string,
): Promise<MediaRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(media)
    .where(and(eq(media.workspaceId, workspaceId), eq(media.sha256, sha256)));
  return row;
}

export async function mediaByKey(ctx: AppContext, key: string): Promise<MediaRow | undefined> {
  const [row] = await ctx.db.select().from(media).where(eq(media.key, key));
  return row;
}

export async function mediaById(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<MediaRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(media)
    .where(and(eq(media.workspaceId, workspaceId), eq(media.id, id)));
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

/**
 * Sets the digest of a presigned upload once its bytes arrived, unless the workspace already has
 * those bytes under another key (then the row stays without one: its key was handed out already).
 */
export async function setMediaSha256(ctx: AppContext, row: MediaRow, sha256: string): Promise<boolean> {
  const updated = await ctx.db
    .update(media)
    .set({ sha256 })
    .where(
      and(
        eq(media.id, row.id),
        isNull(media.sha256),
        sql`not exists (select 1 from media other where other.workspace_id = ${row.workspaceId} and other.sha256 = ${sha256})`,
      ),
    )
    .returning({ id: media.id })
    .catch((error: unknown) => {
      // A racing upload of the same bytes took the digest first: same outcome as `not exists`.
      if (isUniqueViolation(error)) return [];
      throw error;
    });
  return updated.length > 0;
}

/** The row's bytes have been looked at (hashed, thumbnailed, or found never to have arrived). */
export async function markInspected(ctx: AppContext, id: string): Promise<void> {
  await ctx.db.update(media).set({ inspectedAt: new Date() }).where(eq(media.id, id));
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

/** What the thumbnail step learnt: written once, only while no thumbnail is recorded. */
export async function setMediaInspection(ctx: AppContext, id: string, values: Inspection): Promise<boolean> {
  const updated = await ctx.db
    .update(media)
    .set({
      width: values.width ?? null,
      height: values.height ?? null,
      durationMs: values.durationMs ?? null,
      thumbnailKey: values.thumbnailKey ?? null,
    })
    .where(and(eq(media.id, id), isNull(media.thumbnailKey)))
    .returning({ id: media.id });
  return updated.length > 0;
}

const kindCondition: Record<MediaKind, SQL> = {
  image: sql`${media.contentType} like 'image/%'`,
  video: sql`${media.contentType} like 'video/%'`,
  document: sql`${media.contentType} not like 'image/%' and ${media.contentType} not like 'video/%'`,
};

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listMediaPage(
  ctx: AppContext,
  workspaceId: string,
  options: {
    limit: number;
    after?: KeysetPosition | undefined;
    q?: string | undefined;
    kind?: MediaKind | undefined;
    tag?: string | undefined;
  },
): Promise<MediaRow[]> {
  const conditions: SQL[] = [eq(media.workspaceId, workspaceId)];
  if (options.after) conditions.push(keysetBefore(media.createdAt, media.id, options.after));
  if (options.kind) conditions.push(kindCondition[options.kind]);
  if (options.tag) {
    conditions.push(
      sql`exists (select 1 from jsonb_array_elements_text(${media.tags}) t where lower(t) = lower(${options.tag}))`,
    );
  }
  const q = options.q?.trim();
  if (q) {
    const pattern = `%${likeEscape(q)}%`;
    conditions.push(
      sql`(${media.filename} ilike ${pattern} or ${media.altText} ilike ${pattern} or exists (select 1 from jsonb_array_elements_text(${media.tags}) t where t ilike ${pattern}))`,
    );
  }
  return ctx.db
    .select()
    .from(media)
    .where(and(...conditions))
    .orderBy(desc(media.createdAt), desc(media.id))
    .limit(options.limit);
}

/**
 * The posts of the workspace that reference each key, anywhere (base media, per-account
 * overrides, thread parts), newest first. `holding` limits them to the given statuses.
 */
export async function postsUsingMedia(
  ctx: Db,
  workspaceId: string,
  keys: string[],
  holding?: readonly string[],
): Promise<Map<string, { postId: string; status: string }[]>> {
  const uses = new Map<string, { postId: string; status: string }[]>();
  if (keys.length === 0) return uses;
  const statusFilter = holding
    ? sql`and p.status in (${sql.join(
        holding.map((s) => sql`${s}`),
        sql`, `,
      )})`
    : sql``;
  const result = await ctx.db.execute(sql`
    select k.key, p.id as post_id, p.status
    from unnest(array[${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )}]::text[]) as k(key)
    join ${posts} p on p.workspace_id = ${workspaceId} ${statusFilter}
      and jsonb_path_exists(
        jsonb_build_array(p.media, p.overrides, p.thread),
        'lax $.**.key ? (@ == $k)',
        jsonb_build_object('k', k.key)
      )
    order by p.created_at desc, p.id desc`);
  for (const row of rowsOf<{ key: string; post_id: string; status: string }>(result)) {
    const list = uses.get(row.key) ?? [];
    if (list.length < 20) list.push({ postId: row.post_id, status: row.status });
    uses.set(row.key, list);
  }
  return uses;
}

export async function updateMediaRow(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  values: Partial<Pick<MediaRow, 'filename' | 'altText' | 'tags'>>,
): Promise<MediaRow | undefined> {
  if (Object.keys(values).length === 0) return mediaById(ctx, workspaceId, id);
  const [row] = await ctx.db
    .update(media)
    .set(values)
    .where(and(eq(media.workspaceId, workspaceId), eq(media.id, id)))
    .returning();
  return row;
}

/**
 * Deletes the row unless a post with one of the `holding` statuses uses it, in one transaction:
 * the row is locked first (`FOR UPDATE`), so a post write that holds it (`holdMedia`) is either
 * committed before the check reads the posts, or waits and then finds the media gone.
 */
export async function deleteUnusedMediaRow(
  ctx: Db,
  workspaceId: string,
  id: string,
  holding: readonly string[],
): Promise<{ deleted: MediaRow } | { usedBy: { postId: string; status: string }[] } | undefined> {
  return inTransaction(ctx, async (tx) => {
    const where = and(eq(media.workspaceId, workspaceId), eq(media.id, id));
    const [row] = await tx.db.select().from(media).where(where).for('update');
    if (!row) return undefined;
    const usedBy = (await postsUsingMedia(tx, workspaceId, [row.key], holding)).get(row.key) ?? [];
    if (usedBy.length > 0) return { usedBy };
    const [deleted] = await tx.db.delete(media).where(where).returning();
    return deleted ? { deleted } : undefined;
  });
}

/**
 * Of `keys`, those the workspace has, each locked (`FOR SHARE`) until the caller's transaction
 * ends: a post stored in that transaction cannot lose its media to a concurrent delete.
 */
export async function holdMedia(ctx: Db, workspaceId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await ctx.db
    .select({ key: media.key })
    .from(media)
    .where(and(eq(media.workspaceId, workspaceId), inArray(media.key, keys)))
    .for('share');
  return new Set(rows.map((r) => r.key));
}

export async function deleteMediaByKey(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.delete(media).where(eq(media.key, key));
}

/**
 * Every stored object of the workspace's media: files and their thumbnails or posters. Read just
 * before the workspace goes (its rows cascade away with it) so the objects can follow.
 */
export async function storedKeysOf(ctx: Db, workspaceId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ key: media.key, thumbnailKey: media.thumbnailKey })
    .from(media)
    .where(eq(media.workspaceId, workspaceId));
  return rows.flatMap((row) => (row.thumbnailKey ? [row.key, row.thumbnailKey] : [row.key]));
}
