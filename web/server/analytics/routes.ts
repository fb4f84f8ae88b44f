import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import {
  AccountSeries,
  AnalyticsSummary,
  BestTimes,
  CollectionSummary,
  exportFormats,
  PostMetrics,
  rangeParams,
} from './schema.ts';

const badRange = {
  invalid_request:
    'from/to not a day that exists (YYYY-MM-DD), from after to, more than 366 days, over 100 accountIds',
};

/** Post analytics (contract section H, docs/analytics.md). */
export const analyticsRoutes = defineApiRoutes({
  collectAnalytics: {
    method: 'post',
    path: '/api/internal/analytics/collect',
    auth: 'dispatchSecret',
    operationId: 'collectAnalytics',
    summary: 'Collect due post metrics and followers (for cron)',
    description:
      '`Authorization: Bearer <DISPATCH_SECRET>`; 404 when DISPATCH_SECRET is unset. One collection run, as the in-process collector makes every `ANALYTICS_INTERVAL_MS`: newly posted targets are taken in, due targets and due followers collected under leases (concurrent calls never collect a target twice). For deployments that run on cron alone.',
    responses: {
      200: { description: 'What this run did.', content: { [json]: CollectionSummary } },
      ...problemResponses({ unauthorized: 'wrong or missing secret', not_found: 'DISPATCH_SECRET unset' }),
    },
  },
  getPostMetrics: {
    method: 'get',
    path: '/api/v1/posts/{id}/metrics',
    auth: 'caller',
    permission: 'read',
    operationId: 'getPostMetrics',
    summary: 'The figures of each posted target of a post',
    description:
      'Each posted target with the metrics its platform reports (`supported`, canonical names; a metric the platform does not have is absent, never 0), its latest figures and when they were collected. Figures are collected at the offsets after posting that `ANALYTICS_COLLECT_AFTER` lists (by default about +1 h, +6 h, +24 h, +3 d, +7 d and +30 d), then never again; a post deleted on the platform stops its collection (`metricsState: "gone"`). With `history=true` every collection is listed.',
    parameters: [
      idParam('post'),
      {
        name: 'history',
        in: 'query' as const,
        description: '`true`: include every collection.',
        schema: z.enum(['true', 'false']).optional(),
      },
    ],
    responses: {
      200: { description: 'The targets’ figures.', content: { [json]: PostMetrics } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_request: '`history` other than true or false',
      }),
    },
  },
  refreshPostMetrics: {
    method: 'post',
    path: '/api/v1/posts/{id}/metrics/refresh',
    auth: 'caller',
    permission: 'read',
    operationId: 'refreshPostMetrics',
    summary: 'Collect a post’s figures now',
    description:
      'Asks each platform for the post’s figures now (the schedule stays as it was) and answers 202 with what came back; a platform that failed keeps its earlier figures and is tried again later. Targets done with their schedule (+30 d) are collected too and stay done. When another collector holds the account at that moment (a scheduled round in flight), the refresh waits for it, up to 5 s, rather than answer the old figures. At most once per 5 minutes per post, across instances: 429 `rate_limited` with `Retry-After` (seconds) otherwise.',
    parameters: [idParam('post')],
    responses: {
      202: { description: 'Collected; the targets’ figures.', content: { [json]: PostMetrics } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        rate_limited: 'refreshed less than 5 minutes ago; see `Retry-After`',
      }),
    },
  },
  getAccountMetrics: {
    method: 'get',
    path: '/api/v1/accounts/{id}/metrics',
    auth: 'caller',
    permission: 'read',
    operationId: 'getAccountMetrics',
    summary: 'An account’s followers, posts and engagement per day',
    description:
      'Every day of the range in your timezone: `followers` (the last count collected that day; collected once a day where the platform reports them), `posts` (targets of this account posted that day), and the sum of their latest `engagement` and `impressions` where reported.',
    parameters: [idParam('account'), ...rangeParams],
    responses: {
      200: { description: 'The series.', content: { [json]: AccountSeries } },
      ...problemResponses({ ...unauthorized, ...notFound, ...badRange }),
    },
  },
  getBestTimes: {
    method: 'get',
    path: '/api/v1/accounts/{id}/best-times',
    auth: 'caller',
    permission: 'read',
    operationId: 'getBestTimes',
    summary: 'When this account’s posts do best',
    description:
      'The hours of the week (your timezone) ranked by the median engagement per post of this account’s own posted targets — medians, so one viral post does not make its hour best. Needs at least 20 posted targets with figures; below that `slots` is empty and `reason` is `insufficient_data`. The queue editor offers the first slots as suggestions.',
    parameters: [idParam('account')],
    responses: {
      200: { description: 'The ranked slots.', content: { [json]: BestTimes } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  getAnalytics: {
    method: 'get',
    path: '/api/v1/analytics',
    auth: 'caller',
    permission: 'read',
    operationId: 'getAnalytics',
    summary: 'Totals, per account, per day and top posts over a range of days',
    description:
      'Targets posted within the range (days in your timezone, default the last 30), of all your accounts or `accountIds` (comma-separated or repeated): totals, per account, every day of the range, and the 10 targets with the most engagement. Each target counts with its latest figures; a sum is absent where no target reported that metric. Answered from the latest-figures rollup (`target_metrics`, indexed by account and posting time), never the history.',
    parameters: [
      ...rangeParams,
      {
        name: 'accountIds',
        in: 'query' as const,
        description:
          'Only these accounts (comma-separated). An id that is not an account of this workspace (removed, or another workspace’s) answers 404, as a missing one does.',
        schema: z.string().optional(),
      },
    ],
    responses: {
      200: { description: 'The summary.', content: { [json]: AnalyticsSummary } },
      ...problemResponses({ ...unauthorized, ...notFound, ...badRange }),
    },
  },
  exportAnalytics: {
    method: 'get',
    path: '/api/v1/analytics/export',
    auth: 'caller',
    permission: 'read',
    operationId: 'exportAnalytics',
    summary: 'Download one row per posted target with its figures (CSV or JSON)',
    description:
      'Streamed: `postId`, `accountId`, `platform`, `postedAt`, `metricsState`, `collectedAt`, `engagement` and one column per metric (empty where not reported); JSON is an array of the same objects with `metrics` nested.',
    parameters: [
      {
        name: 'format',
        in: 'query' as const,
        description: '`csv` (default) or `json`.',
        schema: z.enum(exportFormats).optional(),
      },
      ...rangeParams,
    ],
    responses: {
      200: {
        description: 'The rows.',
        content: {
          'text/csv': z.string().meta({ description: 'CSV with a header row.' }),
          [json]: z.array(z.record(z.string(), z.unknown())),
        },
      },
      ...problemResponses({ ...unauthorized, ...badRange }),
    },
  },
});
