import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { switchWorkspace } from '#server/workspaces/switch-workspace.ts';

export const runtime = 'nodejs';

export const POST = route(workspacesRoutes.switchWorkspace, async ({ ctx, caller }) =>
  json(await switchWorkspace(ctx, caller)),
);
