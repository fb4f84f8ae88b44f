import type { AuditAction } from '#server/audit/actions.ts';
import type { AuditActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { Db } from '#server/db/access.ts';
import { userIdentity } from './repository.ts';

/**
 * A member change's audit entry, written with the change's transaction: the member's address and
 * name as they are now (the entry keeps them after the member leaves), plus the roles involved.
 */
export async function auditMember(
  tx: Db,
  input: {
    workspaceId: string;
    actor: AuditActor;
    action: Extract<AuditAction, `member.${string}`>;
    userId: string;
    details: Record<string, unknown>;
  },
): Promise<void> {
  const who = await userIdentity(tx, input.userId);
  await recordAudit(tx, {
    workspaceId: input.workspaceId,
    actor: input.actor,
    action: input.action,
    target: { type: 'member', id: input.userId },
    details: {
      ...(who ? { email: who.email, ...(who.name ? { name: who.name } : {}) } : {}),
      ...input.details,
    },
  });
}
