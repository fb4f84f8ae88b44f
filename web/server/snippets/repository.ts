import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { snippetDefaults, snippets } from '#server/db/schema.ts';

/** The only SQL for snippets and the accounts they are the default signature of. */

export type SnippetRow = typeof snippets.$inferSelect;

const owned = (workspaceId: string, id: string) =>
  and(eq(snippets.id, id), eq(snippets.workspaceId, workspaceId));

export async function snippetsOf(ctx: Db, workspaceId: string): Promise<SnippetRow[]> {
  return ctx.db
    .select()
    .from(snippets)
    .where(eq(snippets.workspaceId, workspaceId))
    .orderBy(asc(snippets.kind), asc(snippets.name), asc(snippets.id));
}

export async function findSnippet(ctx: Db, workspaceId: string, id: string): Promise<SnippetRow | undefined> {
  const [row] = await ctx.db.select().from(snippets).where(owned(workspaceId, id));
  return row;
}

export async function insertSnippet(ctx: Db, values: typeof snippets.$inferInsert): Promise<SnippetRow> {
  const [row] = await ctx.db.insert(snippets).values(values).returning();
  return row!;
}

export async function updateSnippetRow(
  ctx: Db,
  workspaceId: string,
  id: string,
  values: Partial<typeof snippets.$inferInsert>,
): Promise<SnippetRow | undefined> {
  const [row] = await ctx.db.update(snippets).set(values).where(owned(workspaceId, id)).returning();
  return row;
}

export async function deleteSnippetRow(ctx: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await ctx.db.delete(snippets).where(owned(workspaceId, id)).returning({ id: snippets.id });
  return rows.length > 0;
}

/** Account ids per snippet, for the given snippets. */
export async function defaultsOf(ctx: Db, snippetIds: string[]): Promise<Map<string, string[]>> {
  const bySnippet = new Map<string, string[]>();
  if (snippetIds.length === 0) return bySnippet;
  const rows = await ctx.db
    .select()
    .from(snippetDefaults)
    .where(inArray(snippetDefaults.snippetId, snippetIds))
    .orderBy(asc(snippetDefaults.accountId));
  for (const row of rows)
    bySnippet.set(row.snippetId, [...(bySnippet.get(row.snippetId) ?? []), row.accountId]);
  return bySnippet;
}

/**
 * Makes `snippetId` the default of exactly `accountIds`: its other accounts lose it, and each
 * listed account moves to it from whichever signature had it (the account id is the key).
 */
export async function setDefaults(
  ctx: Db,
  workspaceId: string,
  snippetId: string,
  accountIds: string[],
): Promise<void> {
  await ctx.db.delete(snippetDefaults).where(eq(snippetDefaults.snippetId, snippetId));
  if (accountIds.length === 0) return;
  await ctx.db
    .insert(snippetDefaults)
    .values(accountIds.map((accountId) => ({ accountId, snippetId, workspaceId })))
    .onConflictDoUpdate({ target: snippetDefaults.accountId, set: { snippetId } });
}
