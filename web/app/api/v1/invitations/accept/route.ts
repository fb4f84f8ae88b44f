import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { acceptInvitation } from '#server/workspaces/accept-invitation.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { AcceptInvitationRequest } from '#server/workspaces/schema.ts';

export const runtime = 'nodejs';

export const POST = route(workspacesRoutes.acceptInvitation, async ({ request, ctx, caller }) => {
  const { token } = await readBody(request, AcceptInvitationRequest);
  return json({ workspace: await acceptInvitation(ctx, caller.userId, token) });
});
