import { canonicalMetrics, formatCsv, postMetricNames } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { todayIn } from './days.ts';
import { exportPage, ownerTimezone } from './repository.ts';
import { type DayRange, parseExportFormat, parseRange } from './schema.ts';

const pageSize = 1000;
const columns = [
  'postId',
  'accountId',
  'platform',
  'postedAt',
  'metricsState',
  'collectedAt',
  'engagement',
  ...postMetricNames,
];

interface ExportRow {
  postId: string;
  accountId: string;
  platform: string;
  postedAt: string;
  metricsState: string;
  collectedAt: string | null;
  engagement: number | null;
  metrics: Record<string, number>;
}

/** Parses the export's query: the format and the range of days (the caller's timezone). */
export async function exportRequest(
  ctx: AppContext,
  owner: string,
  query: URLSearchParams,
): Promise<{ format: 'csv' | 'json'; range: DayRange; timezone: string }> {
  const format = parseExportFormat(query);
  const timezone = await ownerTimezone(ctx, owner);
  return { format, range: parseRange(query, todayIn(timezone)), timezone };
}

/**
 * `GET /api/v1/analytics/export`: one row per posted target of the range with its latest figures,
 * streamed a page at a time (keyset on posted time, post and account), so an export of any size
 * holds one page in memory. CSV: one column per metric, empty where not reported.
 */
export function exportMetrics(
  ctx: AppContext,
  owner: string,
  request: { format: 'csv' | 'json'; range: DayRange; timezone: string },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { postedAt: string; postId: string; accountId: string } | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const rows = await exportPage(ctx, owner, request.range, request.timezone, after, pageSize);
      const views: ExportRow[] = rows.map((r) => ({
        postId: String(r.post_id),
        accountId: String(r.account_id),
        platform: String(r.platform),
        postedAt: new Date(Number(r.posted_ms)).toISOString(),
        metricsState: String(r.state),
        collectedAt: r.collected_at ? new Date(r.collected_at as string).toISOString() : null,
        engagement: r.engagement === null ? null : Number(r.engagement),
        metrics: canonicalMetrics((r.metrics as Record<string, unknown>) ?? {}),
      }));
      const last = rows.at(-1);
      if (last)
        after = {
          postedAt: new Date(Number(last.posted_ms)).toISOString(),
          postId: String(last.post_id),
          accountId: String(last.account_id),
        };
      let chunk: string;
      if (request.format === 'csv') {
        // The one CSV writer (CRLF records, formula cells neutralised: docs/import-export.md#csv-safety).
        chunk = formatCsv(
          views.map(({ metrics, ...rest }) => {
            const row: Record<string, unknown> = { ...rest, ...metrics };
            return columns.map((column) => (row[column] == null ? '' : String(row[column])));
          }),
          started ? undefined : columns,
        );
      } else {
        const body = views.map((v) => JSON.stringify(v)).join(',');
        chunk = `${started ? '' : '['}${started && body ? ',' : ''}${body}`;
      }
      started = true;
      if (rows.length < pageSize) {
        done = true;
        if (request.format === 'json') chunk += ']';
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}
