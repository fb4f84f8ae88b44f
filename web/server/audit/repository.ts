import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import { auditEntries } from '#server/db/schema.ts';

/** The only SQL of the audit log. */

export type AuditRow = typeof auditEntries.$inferSelect;
export type NewAuditRow = typeof auditEntries.$inferInsert;

export async function insertAuditEntries(ctx: Db, rows: readonly NewAuditRow[]): Promise<void> {
  if (rows.length > 0) await ctx.db.insert(auditEntries).values([...rows]);
}

export interface AuditFilter {
  action?: string | undefined;
  actorId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** Newest first, keyset on (at, id): one backward range scan of (workspace_id, at desc, id desc). */
export async function selectAuditPage(
  ctx: Db,
  workspaceId: string,
  filter: AuditFilter,
  page: { limit: number; after?: KeysetPosition | undefined },
): Promise<AuditRow[]> {
  return ctx.db
    .select()
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.workspaceId, workspaceId),
        filter.action ? eq(auditEntries.action, filter.action) : undefined,
        filter.actorId ? eq(auditEntries.actorId, filter.actorId) : undefined,
        filter.from ? gte(auditEntries.at, filter.from) : undefined,
        filter.to ? lt(auditEntries.at, filter.to) : undefined,
        page.after ? keysetBefore(auditEntries.at, auditEntries.id, page.after) : undefined,
      ),
    )
    .orderBy(sql`${auditEntries.at} desc nulls last`, sql`${auditEntries.id} desc nulls last`)
    .limit(page.limit);
}
