import { listAudit } from '#server/audit/list-audit.ts';
import { auditRoutes } from '#server/audit/routes.ts';
import { parseAuditQuery } from '#server/audit/schema.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(auditRoutes.listAudit, async ({ request, ctx, caller }) =>
  json(await listAudit(ctx, caller.workspaceId, parseAuditQuery(new URL(request.url).searchParams))),
);
