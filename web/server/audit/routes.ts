import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { auditActions } from './actions.ts';
import { AuditPage, AuditQuery } from './schema.ts';

export const auditRoutes = defineApiRoutes({
  listAudit: {
    method: 'get',
    path: '/api/v1/audit',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'listAudit',
    summary: "The workspace's audit log, newest first, keyset-paginated (owners and admins)",
    description:
      'Who changed what in the workspace: posts created, edited, submitted, approved, rejected, published and deleted; accounts connected and disconnected; members invited, joined, changed and removed; tokens created and revoked; webhooks created and deleted. Each entry is written in the same transaction as the change it describes, so a change that did not happen has no entry. An assistant acts for the member who granted it (`actor.type: "assistant"`, `actor.id` that member); the dispatcher publishing a due post is `system`. Other roles: 403 `forbidden` with `requiredRole: "admin"`.',
    parameters: [
      { name: 'limit', in: 'query', description: '1–200, default 50.', schema: AuditQuery.shape.limit },
      {
        name: 'cursor',
        in: 'query',
        description: '`nextCursor` of the previous page.',
        schema: AuditQuery.shape.cursor,
      },
      { name: 'action', in: 'query', description: 'Only this action.', schema: z.enum(auditActions) },
      {
        name: 'actorId',
        in: 'query',
        description: 'Only what this member (or their assistants) did.',
        schema: z.string(),
      },
      {
        name: 'from',
        in: 'query',
        description:
          'From this time on: a date (`2026-12-01`, UTC midnight) or an ISO 8601 date-time with an offset.',
        schema: z.string(),
      },
      {
        name: 'to',
        in: 'query',
        description:
          'Before this time: a date (through the end of that UTC day) or an ISO 8601 date-time (exclusive).',
        schema: z.string(),
      },
    ],
    responses: {
      200: { description: 'A page of entries.', content: { [json]: AuditPage } },
      ...problemResponses({
        ...unauthorized,
        forbidden: 'the caller is not an owner or admin of the workspace (`requiredRole`)',
        invalid_request: 'bad limit, cursor, action, actorId, from or to',
      }),
    },
  },
});
