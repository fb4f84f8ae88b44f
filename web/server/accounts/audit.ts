import type { AuditActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { Db } from '#server/db/access.ts';
import type { AccountRow } from './repository.ts';

/** An account's audit entry: its platform and name, never its credentials. */
export function auditAccount(
  tx: Db,
  row: AccountRow,
  actor: AuditActor,
  action: 'account.connected' | 'account.disconnected',
  details: Record<string, unknown>,
): Promise<void> {
  return recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor,
    action,
    target: { type: 'account', id: row.id },
    details: {
      platform: row.platform,
      ...(row.label ? { label: row.label } : {}),
      ...(row.username ? { username: row.username } : {}),
      ...details,
    },
  });
}
