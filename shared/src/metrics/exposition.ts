import { hash, timingSafeEqual } from 'node:crypto';
import { metrics } from './registry.ts';

export type MetricsAccess = 'disabled' | 'unauthorized' | 'allowed';

const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * `/metrics` is off (404) without METRICS_TOKEN, and then needs `Authorization: Bearer <token>`,
 * compared in constant time (both sides hashed, so length leaks nothing either).
 */
export function metricsAccess(
  authorization: string | null | undefined,
  token: string | undefined,
): MetricsAccess {
  if (!token) return 'disabled';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return 'unauthorized';
  return timingSafeEqual(digest(match[1]!), digest(token)) ? 'allowed' : 'unauthorized';
}

/** The registry in Prometheus text format, with its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
