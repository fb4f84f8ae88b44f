import { actorOf } from '#server/audit/actor.ts';
import type { Caller } from '#server/auth/caller.ts';
import { assertCan } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import { auditMember } from './audit.ts';
import { changeMember } from './members.ts';
import { deleteMember } from './repository.ts';

/**
 * `DELETE /api/v1/workspaces/{id}/members/{userId}`: the member leaves, and their API and CLI
 * tokens and MCP grants for this workspace end in the same transaction (and every request checks
 * membership anyway, server/auth/caller.ts). Any member may leave (their own id); removing someone
 * else needs an admin, and an owner to remove an owner. The last owner never leaves.
 */
export async function removeMember(ctx: AppContext, caller: Caller, userId: string): Promise<void> {
  if (userId !== caller.userId) assertCan(caller.role, 'members.manage');
  await changeMember(ctx, caller, userId, undefined, async (tx, target) => {
    // Named before the row goes; the entry commits with the removal.
    await auditMember(tx, {
      workspaceId: caller.workspaceId,
      actor: actorOf(caller),
      action: 'member.removed',
      userId,
      details: { role: target.role, ...(userId === caller.userId ? { left: true } : {}) },
    });
    await deleteMember(tx, caller.workspaceId, userId, new Date());
  });
}
