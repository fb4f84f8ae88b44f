import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { changeMemberRole } from '#server/workspaces/change-member-role.ts';
import { removeMember } from '#server/workspaces/remove-member.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { ChangeRoleRequest } from '#server/workspaces/schema.ts';

export const runtime = 'nodejs';

export const PATCH = route(workspacesRoutes.changeMemberRole, async ({ request, ctx, caller, params }) => {
  const { role } = await readBody(request, ChangeRoleRequest);
  return json(await changeMemberRole(ctx, caller, params.userId, role));
});

export const DELETE = route(workspacesRoutes.removeMember, async ({ ctx, caller, params }) => {
  await removeMember(ctx, caller, params.userId);
  return noContent();
});
