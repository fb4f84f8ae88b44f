import { noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { revokeInvitation } from '#server/workspaces/revoke-invitation.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';

export const runtime = 'nodejs';

export const DELETE = route(workspacesRoutes.revokeInvitation, async ({ ctx, caller, params }) => {
  await revokeInvitation(ctx, caller, params.invitationId);
  return noContent();
});
