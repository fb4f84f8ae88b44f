import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { revokeInvitation as revokeRow } from './repository.ts';

/** `DELETE /api/v1/workspaces/{id}/invitations/{invitationId}`: the link stops working (404 after). */
export async function revokeInvitation(ctx: AppContext, caller: Caller, invitationId: string): Promise<void> {
  if (!isUuid(invitationId) || !(await revokeRow(ctx, caller.workspaceId, invitationId, new Date())))
    throw notFound('invitation');
}
