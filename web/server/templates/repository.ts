import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { templates } from '#server/db/schema.ts';

/** The only SQL for templates. */

export type TemplateRow = typeof templates.$inferSelect;

const owned = (workspaceId: string, id: string) =>
  and(eq(templates.id, id), eq(templates.workspaceId, workspaceId));

export async function templatesOf(ctx: Db, workspaceId: string): Promise<TemplateRow[]> {
  return ctx.db
    .select()
    .from(templates)
    .where(eq(templates.workspaceId, workspaceId))
    .orderBy(asc(templates.name), asc(templates.id));
}

export async function findTemplate(
  ctx: Db,
  workspaceId: string,
  id: string,
): Promise<TemplateRow | undefined> {
  const [row] = await ctx.db.select().from(templates).where(owned(workspaceId, id));
  return row;
}

export async function insertTemplate(ctx: Db, values: typeof templates.$inferInsert): Promise<TemplateRow> {
  const [row] = await ctx.db.insert(templates).values(values).returning();
  return row!;
}

export async function updateTemplateRow(
  ctx: Db,
  workspaceId: string,
  id: string,
  values: Partial<typeof templates.$inferInsert>,
): Promise<TemplateRow | undefined> {
  const [row] = await ctx.db.update(templates).set(values).where(owned(workspaceId, id)).returning();
  return row;
}

export async function deleteTemplateRow(ctx: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await ctx.db.delete(templates).where(owned(workspaceId, id)).returning({ id: templates.id });
  return rows.length > 0;
}
