import { ProblemError, parseOffsetDateTime, problem } from '@postwave/shared';
import { z } from 'zod';
import { auditActorTypes } from '#server/db/schema.ts';
import { isUuid } from '#server/http/ids.ts';
import { pageLimit } from '#server/http/query.ts';
import { auditActions, auditTargetTypes } from './actions.ts';

export const AuditActorView = z
  .object({
    type: z.enum(auditActorTypes),
    id: z.string().optional().meta({
      description: 'The member (for an assistant: the member who granted it); absent for the system.',
    }),
    name: z.string().meta({ description: 'The name at the time of the change.' }),
  })
  .meta({ id: 'AuditActor' });

export const AuditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: AuditActorView,
    action: z.enum(auditActions),
    target: z.object({ type: z.enum(auditTargetTypes), id: z.string() }),
    details: z.record(z.string(), z.unknown()).optional().meta({
      description: 'What helps a reader (names, roles, platforms, statuses); never a secret.',
    }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryView = z.infer<typeof AuditEntry>;

export const AuditPage = z
  .object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditPage' });

/** Also the OpenAPI parameters' schemas, so the limits documented are the ones enforced. */
export const AuditQuery = z.object({
  limit: pageLimit(),
  cursor: z.string().max(500).optional(),
  action: z.enum(auditActions).optional(),
  actorId: z.string().max(100).optional(),
  from: z.string().max(100).optional(),
  to: z.string().max(100).optional(),
});

export interface AuditQueryInput {
  limit: number;
  cursor?: string | undefined;
  action?: (typeof auditActions)[number] | undefined;
  actorId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const invalid = (detail: string, path: string) =>
  new ProblemError(
    problem('invalid_request', detail, { errors: [{ path, code: 'invalid', message: detail }] }),
  );

/**
 * A plain date (`2026-12-01`) is that day in UTC: `from` its start, `to` its end (so from and to
 * the same day is that whole day); otherwise ISO 8601 with an offset, `to` exclusive.
 */
function parseBound(name: 'from' | 'to', value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = parseOffsetDateTime(`${value}T00:00:00Z`);
    if (start) return name === 'from' ? start : new Date(start.getTime() + 24 * 60 * 60 * 1000);
  }
  const when = parseOffsetDateTime(value);
  if (!when)
    throw invalid(`${name} must be a date (2026-12-01) or an ISO 8601 date-time with an offset`, name);
  return when;
}

/** `GET /api/v1/audit`'s query; an empty field (a form's "All" or blank date) means no filter. */
export function parseAuditQuery(params: URLSearchParams): AuditQueryInput {
  const parsed = AuditQuery.safeParse(Object.fromEntries([...params].filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.map(String).join('.') ?? 'query';
    throw invalid(
      path === 'action'
        ? `action must be one of: ${auditActions.join(', ')}`
        : `${path} is not valid (limit is 1 to 200)`,
      path,
    );
  }
  const { actorId } = parsed.data;
  if (actorId !== undefined && !isUuid(actorId)) throw invalid('actorId must be a member id', 'actorId');
  const from = parseBound('from', parsed.data.from);
  const to = parseBound('to', parsed.data.to);
  if (from && to && from >= to) throw invalid('from must be before to', 'from');
  return { ...parsed.data, from, to };
}
