import type { Db } from '#server/db/access.ts';
import { decodeCursor, keysetPage } from '#server/http/cursor.ts';
import type { AuditAction, AuditTargetType } from './actions.ts';
import { type AuditRow, selectAuditPage } from './repository.ts';
import type { AuditEntryView, AuditQueryInput } from './schema.ts';

/** `GET /api/v1/audit`: the workspace's entries, newest first, a page at a time. */
export async function listAudit(
  ctx: Db,
  workspaceId: string,
  query: AuditQueryInput,
): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await selectAuditPage(ctx, workspaceId, query, { limit: query.limit + 1, after });
  const { page, nextCursor } = keysetPage(rows, query.limit, (row) => ({ createdAt: row.at, id: row.id }));
  return { entries: page.map(toView), nextCursor };
}

export function toView(row: AuditRow): AuditEntryView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { type: row.actorType, ...(row.actorId ? { id: row.actorId } : {}), name: row.actorName },
    action: row.action as AuditAction,
    target: { type: row.targetType as AuditTargetType, id: row.targetId },
    ...(row.details ? { details: row.details } : {}),
  };
}
