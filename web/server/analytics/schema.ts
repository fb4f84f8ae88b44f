import { ProblemError, postMetricNames, problem } from '@postwave/shared';
import { isCalendarDay } from '@postwave/shared/analytics/calendar-day';
import { z } from 'zod';
import { metricsStates } from '#server/db/schema.ts';

/*
 * The analytics API's shapes (contract section H, docs/analytics.md): each zod schema is the
 * type, the runtime check and the OpenAPI entry.
 */

const metricShape = Object.fromEntries(
  postMetricNames.map((name) => [name, z.number().int().optional()]),
) as {
  [K in (typeof postMetricNames)[number]]: z.ZodOptional<z.ZodNumber>;
};

export const MetricValues = z.object(metricShape).meta({
  id: 'MetricValues',
  description:
    'Figures by canonical name. A metric the platform does not report is absent, never 0: `impressions`, `reach`, `views`, `likes`, `comments`, `reposts` (re-published on the same network), `quotes`, `shares` (sent elsewhere), `saves`, `clicks`.',
});
export type MetricValuesView = z.infer<typeof MetricValues>;

export const TargetMetrics = z
  .object({
    accountId: z.string(),
    platform: z.string(),
    platformPostId: z.string().nullable(),
    url: z.string().nullable(),
    supported: z.array(z.enum(postMetricNames)).meta({ description: 'What this platform reports.' }),
    metrics: MetricValues,
    engagement: z.number().int().nullable().meta({
      description:
        'likes + comments + reposts + quotes + shares + saves (+ clicks); null when none is reported.',
    }),
    collectedAt: z.string().nullable(),
    metricsState: z.enum(metricsStates).meta({
      description:
        '`collecting` (on schedule: +1 h, +6 h, +24 h, +3 d, +7 d, +30 d after posting), `done` (after the last), `gone` (the post was deleted on the platform: collection stopped), `unsupported` (the platform reports no post metrics).',
    }),
    nextCollectAt: z.string().nullable(),
    history: z
      .array(z.object({ at: z.string(), metrics: MetricValues }))
      .optional()
      .meta({ description: 'Every collection, oldest first (with `history=true`).' }),
  })
  .meta({ id: 'TargetMetrics' });
export type TargetMetricsView = z.infer<typeof TargetMetrics>;

export const PostMetrics = z.object({ targets: z.array(TargetMetrics) }).meta({ id: 'PostMetrics' });
export type PostMetricsView = z.infer<typeof PostMetrics>;

export const AccountSeries = z
  .object({
    timezone: z.string(),
    series: z.array(
      z.object({
        date: z.string().meta({ description: 'A day (YYYY-MM-DD) in your timezone.' }),
        followers: z.number().int().optional().meta({ description: 'The last count collected that day.' }),
        posts: z.number().int().meta({ description: 'Targets of this account posted that day.' }),
        engagement: z.number().int().optional(),
        impressions: z.number().int().optional(),
      }),
    ),
  })
  .meta({ id: 'AccountSeries' });
export type AccountSeriesView = z.infer<typeof AccountSeries>;

const Totals = z.object({
  posts: z.number().int().meta({ description: 'Posted targets (one post to three accounts counts 3).' }),
  engagement: z.number().int().optional().meta({
    description:
      'likes + comments + reposts + quotes + shares + saves (+ clicks) of the targets that reported any; absent (never 0) when none did, e.g. only platforms without post figures.',
  }),
  metrics: MetricValues,
});

export const AnalyticsSummary = z
  .object({
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    totals: Totals,
    perAccount: z.array(Totals.extend({ accountId: z.string(), platform: z.string() })),
    perDay: z.array(Totals.extend({ date: z.string() })),
    topPosts: z.array(
      z.object({
        postId: z.string(),
        accountId: z.string(),
        platform: z.string(),
        url: z.string().nullable(),
        message: z.string().meta({ description: 'The first 140 characters.' }),
        postedAt: z.string(),
        engagement: z.number().int(),
        metrics: MetricValues,
      }),
    ),
  })
  .meta({ id: 'AnalyticsSummary' });
export type AnalyticsSummaryView = z.infer<typeof AnalyticsSummary>;

export const BestTimes = z
  .object({
    timezone: z.string(),
    sampleSize: z.number().int().meta({ description: 'Posted targets with engagement figures considered.' }),
    slots: z.array(
      z.object({
        weekday: z.number().int().min(1).max(7).meta({
          description:
            '1 = Monday … 7 = Sunday, as the queue’s slots (a slot can be added to the queue as it is).',
        }),
        hour: z.number().int().min(0).max(23),
        score: z.number().meta({ description: 'The median engagement per post of this hour.' }),
        posts: z.number().int(),
      }),
    ),
    reason: z.literal('insufficient_data').optional().meta({
      description: 'Fewer than 20 posted targets with figures: no slots are suggested.',
    }),
  })
  .meta({ id: 'BestTimes' });
export type BestTimesView = z.infer<typeof BestTimes>;

/** A range of days in the owner's timezone: `from`/`to` as YYYY-MM-DD, at most 366 days; default the last 30. */
export interface DayRange {
  from: string;
  to: string;
}

// Days are checked with `isCalendarDay`: `Date.parse` alone lets 2024-02-30 through (it rolls over
// to March), and the database refuses such a day when it is cast: a 500 instead of a 400.
export { isCalendarDay };

export const rangeParams = [
  {
    name: 'from',
    in: 'query' as const,
    description: 'First day (YYYY-MM-DD, your timezone); default 29 days before `to`.',
    schema: z.string().optional(),
  },
  {
    name: 'to',
    in: 'query' as const,
    description: 'Last day (YYYY-MM-DD), included; default today.',
    schema: z.string().optional(),
  },
];

export function parseRange(params: URLSearchParams, today: string): DayRange {
  const notDays = () => new ProblemError(problem('invalid_request', 'from and to are days: YYYY-MM-DD'));
  const to = params.get('to') || today;
  // `to` is checked before the default `from` is counted back from it (`2026-13-01` is no day).
  if (!isCalendarDay(to)) throw notDays();
  const from = params.get('from') || shiftDay(to, -29);
  if (!isCalendarDay(from)) throw notDays();
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days < 0) throw new ProblemError(problem('invalid_request', 'from must not be after to'));
  if (days > 365) throw new ProblemError(problem('invalid_request', 'a range covers at most 366 days'));
  return { from, to };
}

export function shiftDay(day: string, by: number): string {
  return new Date(Date.parse(day) + by * 86_400_000).toISOString().slice(0, 10);
}

/** `history=true|false` (absent: false); any other value is a 400, not a quiet false. */
export function parseHistoryFlag(params: URLSearchParams): boolean {
  const value = params.get('history');
  if (value === null || value === 'false') return false;
  if (value === 'true') return true;
  throw new ProblemError(problem('invalid_request', 'history is true or false'));
}

/** `accountIds=a,b` (or repeated): at most 100 ids. */
export function parseAccountIds(params: URLSearchParams): string[] | undefined {
  const ids = params
    .getAll('accountIds')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (ids.length > 100) throw new ProblemError(problem('invalid_request', 'at most 100 accountIds'));
  return ids.length > 0 ? ids : undefined;
}

/** What one collection run did (`POST /api/internal/analytics/collect`). */
export const CollectionSummary = z
  .object({
    enrolled: z.number().int().meta({ description: 'Posted targets newly taken into collection.' }),
    targets: z.number().int().meta({ description: 'Due targets claimed.' }),
    collected: z.number().int(),
    gone: z.number().int(),
    failed: z.number().int().meta({ description: 'Targets whose platform call failed (tried again later).' }),
    accounts: z.number().int().meta({ description: 'Accounts whose followers were due.' }),
  })
  .meta({ id: 'CollectionSummary' });

export const exportFormats = ['csv', 'json'] as const;
export function parseExportFormat(params: URLSearchParams): 'csv' | 'json' {
  const format = params.get('format') || 'csv';
  if (format !== 'csv' && format !== 'json')
    throw new ProblemError(problem('invalid_request', 'format is csv or json'));
  return format;
}
