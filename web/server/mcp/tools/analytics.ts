import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getBestTimes } from '#server/analytics/get-best-times.ts';
import { getPostMetrics } from '#server/analytics/get-post-metrics.ts';
import { getAnalyticsSummary } from '#server/analytics/get-summary.ts';
import { isCalendarDay } from '#server/analytics/schema.ts';
import type { AppContext } from '#server/context.ts';
import type { McpActor } from '../actor.ts';
import { McpPostId } from '../schemas.ts';
import { readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isCalendarDay, 'A day that exists, YYYY-MM-DD')
  .describe('A day, YYYY-MM-DD, in the user’s timezone');

/** Analytics tools (docs/analytics.md): the same operations as `/api/v1/analytics` and friends, read-only. */
export function registerAnalyticsTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;
  server.registerTool(
    'get_post_metrics',
    {
      title: 'Get a post’s metrics',
      description:
        'What a published post did on each network: likes, comments, reposts, views and the other metrics each platform reports (absent when it does not report one), engagement, when they were collected, and whether collection goes on (collecting, done, gone when the post was deleted, unsupported). history: every collection too.',
      inputSchema: { id: McpPostId, history: z.boolean().optional().describe('Also list every collection') },
      annotations: readOnly,
    },
    tool(ctx, async ({ id, history }) => {
      const metrics = await getPostMetrics(ctx, workspaceId, id, { history: history ?? false });
      // Absent, never 0, when no target reported figures (contract H).
      const reported = metrics.targets.filter((t) => typeof t.engagement === 'number');
      const engagement = reported.length
        ? String(reported.reduce((n, t) => n + t.engagement!, 0))
        : 'not reported yet';
      return ok(metrics, `Post ${id}: ${metrics.targets.length} target(s), engagement ${engagement}.`);
    }),
  );

  server.registerTool(
    'get_analytics',
    {
      title: 'Get analytics',
      description:
        'Totals over a range of days (default the last 30): posts, engagement and every metric, per account, per day, and the 10 posts with the most engagement.',
      inputSchema: {
        from: Day.optional(),
        to: Day.optional(),
        accountIds: z.array(z.string().max(100)).max(100).optional().describe('Only these accounts'),
      },
      annotations: readOnly,
    },
    tool(ctx, async ({ from, to, accountIds }) => {
      const query = new URLSearchParams();
      if (from) query.set('from', from);
      if (to) query.set('to', to);
      if (accountIds?.length) query.set('accountIds', accountIds.join(','));
      const summary = await getAnalyticsSummary(ctx, workspaceId, query);
      return ok(
        summary,
        `${summary.from} to ${summary.to}: ${summary.totals.posts} post(s), engagement ${summary.totals.engagement ?? 'not reported'}.`,
      );
    }),
  );

  server.registerTool(
    'get_best_times',
    {
      title: 'Get the best times to post',
      description:
        'For one account, the hours of the week (workspace timezone, weekday 1 = Monday … 7 = Sunday, as queue slots) ranked by the median engagement per post of its own history. Needs 20 posted targets with figures; fewer: no slots and reason insufficient_data.',
      inputSchema: { accountId: z.string().max(100).describe('The account id (from list_accounts)') },
      annotations: readOnly,
    },
    tool(ctx, async ({ accountId }) => {
      const best = await getBestTimes(ctx, workspaceId, accountId);
      const first = best.slots[0];
      return ok(
        best,
        first
          ? `Best: weekday ${first.weekday} at ${first.hour}:00 (median engagement ${first.score}, ${best.sampleSize} posts).`
          : `Not enough history yet (${best.sampleSize} posts with figures; 20 needed).`,
      );
    }),
  );
}
