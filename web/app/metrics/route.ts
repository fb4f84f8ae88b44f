import { metricsAccess, problem, renderMetrics } from '@postwave/shared';
import { getConfig } from '#server/context.ts';
import { problemResponse } from '#server/http/respond.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Prometheus text format; 404 without METRICS_TOKEN, 401 without `Authorization: Bearer <it>`. */
export async function GET(request: Request): Promise<Response> {
  const access = metricsAccess(request.headers.get('authorization'), getConfig().metricsToken);
  if (access === 'disabled') return problemResponse(problem('not_found', 'Not found'));
  if (access === 'unauthorized') {
    return problemResponse(problem('unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN>'), {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
  }
  const { contentType, body } = await renderMetrics();
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
