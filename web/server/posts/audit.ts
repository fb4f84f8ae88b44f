import type { AuditAction } from '#server/audit/actions.ts';
import type { AuditActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { Db } from '#server/db/access.ts';
import type { PostRow } from './repository.ts';

/**
 * The audit entry of a change to a post, written with the change's transaction. Details name the
 * status and how many accounts; never the message (it may be long, and the post holds it).
 */
export async function auditPost(
  tx: Db,
  row: Pick<PostRow, 'id' | 'workspaceId' | 'status' | 'accountIds'>,
  actor: AuditActor,
  action: AuditAction,
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor,
    action,
    target: { type: 'post', id: row.id },
    details: { status: row.status, accounts: row.accountIds.length, ...details },
  });
}
