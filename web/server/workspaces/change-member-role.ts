import { actorOf } from '#server/audit/actor.ts';
import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { auditMember } from './audit.ts';
import { listMembers } from './list-members.ts';
import { changeMember } from './members.ts';
import { setMemberRole } from './repository.ts';

/** `PATCH /api/v1/workspaces/{id}/members/{userId}` `{ role }`: the member as they are now. */
export async function changeMemberRole(ctx: AppContext, caller: Caller, userId: string, role: WorkspaceRole) {
  await changeMember(ctx, caller, userId, role, async (tx, target) => {
    await setMemberRole(tx, caller.workspaceId, userId, role);
    if (target.role !== role)
      await auditMember(tx, {
        workspaceId: caller.workspaceId,
        actor: actorOf(caller),
        action: 'member.role_changed',
        userId,
        details: { from: target.role, to: role },
      });
  });
  const { members } = await listMembers(ctx, caller);
  return members.find((m) => m.userId === userId)!;
}
