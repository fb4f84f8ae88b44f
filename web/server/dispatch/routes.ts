import { problemResponses } from '@postwave/shared/openapi/index';
import { json } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { CronDispatchSummary } from './schema.ts';

export const dispatchRoutes = defineApiRoutes({
  dispatchScheduledPosts: {
    method: 'post',
    path: '/api/internal/scheduled-posts/dispatch',
    auth: 'dispatchSecret',
    operationId: 'dispatchScheduledPosts',
    summary: 'Publish due scheduled posts (for cron)',
    description:
      '`Authorization: Bearer <DISPATCH_SECRET>`; 404 when DISPATCH_SECRET is unset. Concurrent calls never publish a target twice. Within the same time budget (`DISPATCH_TIME_BUDGET_MS`) the call also runs a staging pass: posts with video due within `DISPATCH_STAGE_LEAD_MS` have their media uploaded to the platform ahead (`staged`: targets staged by this call; uploads still running when the budget ends are handed back to a later call), and staged uploads of edited or deleted posts are removed from the platform (`discarded`).',
    responses: {
      200: { description: 'What this run did.', content: { [json]: CronDispatchSummary } },
      ...problemResponses({ unauthorized: 'wrong or missing secret', not_found: 'DISPATCH_SECRET unset' }),
    },
  },
});
