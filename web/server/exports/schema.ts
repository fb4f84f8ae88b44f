import { ProblemError, parseOffsetDateTime, problem } from '@postwave/shared';
import { z } from 'zod';
import { postStatuses } from '#server/db/schema.ts';
import { queryParams } from '#server/http/query.ts';
import { Post } from '#server/posts/schema.ts';
import type { ExportFilter } from './repository.ts';

export const exportFormats = ['csv', 'json'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/**
 * The CSV columns, in order; `import` reads `scheduledAt`, `postingMode`, `message`, `accounts`,
 * `media`, `altText`, `accountOptions`, `overrides` and `thread` back and ignores the rest.
 */
export const exportColumns = [
  'id',
  'status',
  'postingMode',
  'scheduledAt',
  'postedAt',
  'createdAt',
  'message',
  'accounts',
  'media',
  'altText',
  'accountOptions',
  'overrides',
  'thread',
  'recycle',
  'results',
] as const;

export const ExportedPost = Post.extend({
  postingMode: z.enum(['draft', 'schedule']).meta({
    description:
      'How an import of this element creates it again: `schedule` for a scheduled post, else `draft` (a posted or failed post comes back as a draft copy, never published again by an import).',
  }),
}).meta({ id: 'ExportedPost' });

const ExportQuery = z.object({
  format: z.enum(exportFormats).default('csv'),
  status: z.enum(postStatuses).optional(),
  from: z.string().max(100).optional(),
  to: z.string().max(100).optional(),
});

/** `2026-12-01` is midnight UTC; otherwise ISO 8601 with an offset. */
function parseBound(name: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const when = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? parseOffsetDateTime(`${value}T00:00:00Z`)
    : parseOffsetDateTime(value);
  if (!when)
    throw new ProblemError(
      problem(
        'invalid_request',
        `${name} must be a date (2026-12-01) or an ISO 8601 date-time with an offset`,
      ),
    );
  return when;
}

export function parseExportQuery(params: URLSearchParams): { format: ExportFormat; filter: ExportFilter } {
  // An empty field (an HTML form's "All" or a blank date) means no filter.
  const parsed = ExportQuery.safeParse(queryParams(params));
  if (!parsed.success)
    throw new ProblemError(
      problem('invalid_request', `format is csv or json; status is one of ${postStatuses.join(', ')}`),
    );
  const from = parseBound('from', parsed.data.from);
  const to = parseBound('to', parsed.data.to);
  if (from && to && from >= to) throw new ProblemError(problem('invalid_request', 'from must be before to'));
  return { format: parsed.data.format, filter: { status: parsed.data.status, from, to } };
}
