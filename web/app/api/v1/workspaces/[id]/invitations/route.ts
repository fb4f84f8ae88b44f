import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { createInvitation } from '#server/workspaces/create-invitation.ts';
import { listInvitations } from '#server/workspaces/list-invitations.ts';
import { workspacesRoutes } from '#server/workspaces/routes.ts';
import { CreateInvitationRequest } from '#server/workspaces/schema.ts';

export const runtime = 'nodejs';

export const GET = route(workspacesRoutes.listInvitations, async ({ ctx, caller }) =>
  json(await listInvitations(ctx, caller)),
);

export const POST = route(workspacesRoutes.createInvitation, async ({ request, ctx, caller }) =>
  json(await createInvitation(ctx, caller, await readBody(request, CreateInvitationRequest)), 201),
);
