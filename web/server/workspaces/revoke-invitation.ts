import type { Caller } from '#server/auth/caller.ts';
import { atLeast, forbiddenFor } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { revocableInvitationRole, revokeInvitation as revokeRow } from './invitations-repository.ts';

/**
 * `DELETE /api/v1/workspaces/{id}/invitations/{invitationId}`: the link stops working (404 after).
 * Only owners revoke an owner invitation, as only owners create one (create-invitation.ts).
 */
export async function revokeInvitation(ctx: AppContext, caller: Caller, invitationId: string): Promise<void> {
  if (!isUuid(invitationId)) throw notFound('invitation');
  // An invitation's role never changes, so reading it before the revoke leaves no gap to exploit.
  const role = await revocableInvitationRole(ctx, caller.workspaceId, invitationId);
  if (!role) throw notFound('invitation');
  if (role === 'owner' && !atLeast(caller.role, 'owner'))
    throw forbiddenFor('owner', 'Only an owner may revoke an owner invitation');
  if (!(await revokeRow(ctx, caller.workspaceId, invitationId, new Date()))) throw notFound('invitation');
}
