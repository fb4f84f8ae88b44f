import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import { auditEntries } from '#server/db/schema.ts';
import { systemActor } from './actor.ts';

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

/**
 * `post.published` entries (actor `system`) for the rows of `source` (a CTE of updated posts with
 * `id`, `status`, `workspace_id`, `account_ids`) that reached `posted`: a data-modifying CTE, so the
 * publisher's finalizing statement writes its entries itself (posts/repository.ts#finalizePosts).
 * The same row shape `recordAudit` writes.
 */
export function publishedAuditInsert(source: SQL, at: string): SQL {
  return sql`
    INSERT INTO audit_entries
      (id, workspace_id, at, actor_type, actor_id, actor_name, action, target_type, target_id, details)
    SELECT gen_random_uuid(), s.workspace_id, ${at}::timestamptz, 'system', NULL, ${systemActor.name},
      'post.published', 'post', s.id::text,
      jsonb_build_object('status', s.status, 'accounts', jsonb_array_length(s.account_ids))
    FROM ${source} AS s
    WHERE s.status = 'posted'`;
}
