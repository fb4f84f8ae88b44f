import { schedulerReadiness } from '#server/health/readiness.ts';
import { json } from '#server/http/respond.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Readiness: 200 when database, migrations and storage answer; 503 naming what does not. */
export async function GET(): Promise<Response> {
  const report = await schedulerReadiness();
  return json(report.body, report.status);
}
