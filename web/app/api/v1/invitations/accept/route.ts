import { sessionCookieIn } from '#server/auth/session.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { acceptInvitation } from '#server/workspaces/accept-invitation.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { AcceptInvitationRequest } from '#server/workspaces/schema.ts';

export const runtime = 'nodejs';

export const POST = route(workspacesRoutes.acceptInvitation, async ({ request, ctx, caller }) => {
  const { token } = await readBody(request, AcceptInvitationRequest);
  const workspace = await acceptInvitation(ctx, caller.userId, token);
  // A browser that accepts opens the workspace; a token's workspace never moves.
  const cookie =
    caller.via === 'session' ? await sessionCookieIn(ctx.config, request, workspace.id) : undefined;
  return json({ workspace }, 200, cookie ? { 'set-cookie': cookie } : {});
});
