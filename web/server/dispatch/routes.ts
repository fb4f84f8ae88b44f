import { problemResponses } from '@postwave/shared/openapi/index';
import { json } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { DispatchSummary } from './schema.ts';

export const dispatchRoutes = defineApiRoutes({
  dispatchScheduledPosts: {
    method: 'post',
    path: '/api/internal/scheduled-posts/dispatch',
    auth: 'dispatchSecret',
    operationId: 'dispatchScheduledPosts',
    summary: 'Publish due scheduled posts (for cron)',
    description:
      '`Authorization: Bearer <DISPATCH_SECRET>`; 404 when DISPATCH_SECRET is unset. Concurrent calls never publish a target twice.',
    responses: {
      200: { description: 'What this run did.', content: { [json]: DispatchSummary } },
      ...problemResponses({ unauthorized: 'wrong or missing secret', not_found: 'DISPATCH_SECRET unset' }),
    },
  },
});
