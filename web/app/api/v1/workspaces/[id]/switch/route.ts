import { sessionCookieIn } from '#server/auth/session.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { switchWorkspace } from '#server/workspaces/switch-workspace.ts';

export const runtime = 'nodejs';

export const POST = route(workspacesRoutes.switchWorkspace, async ({ request, ctx, caller }) => {
  const workspace = await switchWorkspace(ctx, caller);
  // This browser's session acts in it from now on; other sessions of the user stay where they are.
  const cookie = await sessionCookieIn(ctx.config, request, workspace.id);
  return json(workspace, 200, cookie ? { 'set-cookie': cookie } : {});
});
