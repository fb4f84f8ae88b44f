import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { posts, targetLinks, workspaceLinkSettings } from '#server/db/schema.ts';

export type LinkSettingsRow = typeof workspaceLinkSettings.$inferSelect;
export type TargetLinkRow = typeof targetLinks.$inferSelect;

export async function findLinkSettings(ctx: Db, workspaceId: string): Promise<LinkSettingsRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(workspaceLinkSettings)
    .where(eq(workspaceLinkSettings.workspaceId, workspaceId));
  return row;
}

export async function saveLinkSettings(ctx: Db, row: LinkSettingsRow): Promise<void> {
  const { workspaceId: _, ...rest } = row;
  await ctx.db
    .insert(workspaceLinkSettings)
    .values(row)
    .onConflictDoUpdate({ target: workspaceLinkSettings.workspaceId, set: rest });
}

/** The target's links as an earlier attempt tracked them. */
export async function linksOfTarget(ctx: Db, postId: string, accountId: string): Promise<TargetLinkRow[]> {
  return ctx.db
    .select()
    .from(targetLinks)
    .where(and(eq(targetLinks.postId, postId), eq(targetLinks.accountId, accountId)));
}

/** Every tracked link of these posts. */
export async function linksOfPosts(ctx: Db, postIds: readonly string[]): Promise<TargetLinkRow[]> {
  if (postIds.length === 0) return [];
  return ctx.db
    .select()
    .from(targetLinks)
    .where(inArray(targetLinks.postId, [...postIds]));
}

/**
 * Keeps a short link made for a target; when another attempt already kept one for the same link,
 * that one wins (answered), so the target never posts two short links for one URL.
 */
export async function keepShortLink(
  ctx: Db,
  row: Pick<TargetLinkRow, 'postId' | 'accountId' | 'url' | 'longUrl' | 'shortUrl' | 'provider' | 'ref'>,
): Promise<string> {
  const now = new Date();
  const [kept] = await ctx.db
    .insert(targetLinks)
    .values({ ...row, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [targetLinks.postId, targetLinks.accountId, targetLinks.url],
      set: {
        shortUrl: sql`coalesce(${targetLinks.shortUrl}, excluded.short_url)`,
        provider: sql`case when ${targetLinks.shortUrl} is null then excluded.provider else ${targetLinks.provider} end`,
        ref: sql`case when ${targetLinks.shortUrl} is null then excluded.ref else ${targetLinks.ref} end`,
        warning: sql`case when ${targetLinks.shortUrl} is null then null else ${targetLinks.warning} end`,
        updatedAt: now,
      },
    })
    .returning({ shortUrl: targetLinks.shortUrl });
  return kept?.shortUrl ?? row.shortUrl!;
}

/** What became of the target's links this attempt (a short link already kept stays). */
export async function recordTargetLinks(
  ctx: Db,
  rows: Pick<TargetLinkRow, 'postId' | 'accountId' | 'url' | 'longUrl' | 'warning'>[],
): Promise<void> {
  if (rows.length === 0) return;
  const now = new Date();
  await ctx.db
    .insert(targetLinks)
    .values(rows.map((r) => ({ ...r, createdAt: now, updatedAt: now })))
    .onConflictDoUpdate({
      target: [targetLinks.postId, targetLinks.accountId, targetLinks.url],
      set: { warning: sql`excluded.warning`, updatedAt: now },
    });
}

/** The short links of these targets, with their post's workspace (whose shortener counts their clicks). */
export async function shortLinksOfTargets(
  ctx: Db,
  keys: readonly { postId: string; accountId: string }[],
): Promise<(TargetLinkRow & { workspaceId: string })[]> {
  if (keys.length === 0) return [];
  const rows = await ctx.db
    .select({ link: targetLinks, workspaceId: posts.workspaceId })
    .from(targetLinks)
    .innerJoin(posts, eq(posts.id, targetLinks.postId))
    .where(
      and(
        // One parameter: a list of a round's thousand ids would be parsed and planned each time. A
        // comma-joined text split by the database, not a JS array: pg quotes and escapes an array
        // parameter element by element (3 µs each, a tenth of the collector's own CPU per target).
        sql`${targetLinks.postId} = ANY(string_to_array(${[...new Set(keys.map((k) => k.postId))].join(',')}, ',')::uuid[])`,
        isNotNull(targetLinks.ref),
        isNotNull(targetLinks.shortUrl),
      ),
    );
  // Most rounds' posts have no short link: their thousand keys are not worth a set.
  if (rows.length === 0) return [];
  const wanted = new Set(keys.map((k) => `${k.postId} ${k.accountId}`));
  return rows
    .filter((r) => wanted.has(`${r.link.postId} ${r.link.accountId}`))
    .map((r) => ({ ...r.link, workspaceId: r.workspaceId }));
}

export async function saveClicks(
  ctx: Db,
  link: Pick<TargetLinkRow, 'postId' | 'accountId' | 'url'>,
  clicks: number,
): Promise<void> {
  await ctx.db
    .update(targetLinks)
    .set({ clicks, updatedAt: new Date() })
    .where(
      and(
        eq(targetLinks.postId, link.postId),
        eq(targetLinks.accountId, link.accountId),
        eq(targetLinks.url, link.url),
      ),
    );
}
