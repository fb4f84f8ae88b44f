import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { listMembers } from './list-members.ts';
import { changeMember } from './members.ts';
import { setMemberRole } from './repository.ts';

/** `PATCH /api/v1/workspaces/{id}/members/{userId}` `{ role }`: the member as they are now. */
export async function changeMemberRole(ctx: AppContext, caller: Caller, userId: string, role: WorkspaceRole) {
  await changeMember(ctx, caller, userId, role, (tx) => setMemberRole(tx, caller.workspaceId, userId, role));
  const { members } = await listMembers(ctx, caller);
  return members.find((m) => m.userId === userId)!;
}
