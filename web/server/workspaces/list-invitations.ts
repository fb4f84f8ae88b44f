import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { openInvitationsOf } from './invitations-repository.ts';

/** `GET /api/v1/workspaces/{id}/invitations`: the open ones, newest first (never their tokens). */
export async function listInvitations(ctx: AppContext, caller: Caller) {
  const rows = await openInvitationsOf(ctx, caller.workspaceId, new Date());
  return {
    invitations: rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: r.role,
      expiresAt: r.expiresAt.toISOString(),
    })),
  };
}
