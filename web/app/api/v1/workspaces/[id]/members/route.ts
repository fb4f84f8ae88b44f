import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { listMembers } from '#server/workspaces/list-members.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';

export const runtime = 'nodejs';

export const GET = route(workspacesRoutes.listMembers, async ({ ctx, caller }) =>
  json(await listMembers(ctx, caller)),
);
