import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric Postwave exports, defined once. Both servers render this registry at `/metrics`;
 * the SDK's PostingService and the Scheduler's dispatcher record into it with one-line calls. The
 * schedule's two (`postwave_dispatch_lateness_seconds`, `postwave_scheduled_due`) are exported only
 * once the Scheduler installs its due count: the self-hosted server has no schedule, and a gauge
 * stuck at 0 there would read as "nothing due" in sums across servers.
 *
 * The registry lives on globalThis: Next.js gives each route bundle its own copy of this module,
 * and all of them must count into the one registry the `/metrics` route renders.
 */
export interface PostwaveMetrics {
  registry: Registry;
  publishTotal: Counter<'platform' | 'outcome'>;
  publishDuration: Histogram<'platform'>;
  dispatchLateness: Histogram;
  scheduledDue: Gauge;
}

/** `unknown`: the platform may or may not have acted (the request timed out). */
export type PublishOutcome = 'posted' | 'failed' | 'unknown';

const holder = globalThis as typeof globalThis & { __postwaveMetrics?: PostwaveMetrics };

/** Counts due posts at scrape time; the Scheduler installs one (the self-hosted server has no schedule). */
type DueCounter = () => Promise<number>;
const dueHolder = globalThis as typeof globalThis & { __postwaveDueCounter?: DueCounter };

function create(): PostwaveMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    publishTotal: new Counter({
      name: 'postwave_publish_total',
      help: 'Publishes of one post to one account, by platform and outcome (posted, failed, unknown).',
      labelNames: ['platform', 'outcome'] as const,
      registers: [registry],
    }),
    publishDuration: new Histogram({
      name: 'postwave_publish_duration_seconds',
      help: 'Time to publish one post to one account, retries included.',
      labelNames: ['platform'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    dispatchLateness: new Histogram({
      name: 'postwave_dispatch_lateness_seconds',
      help: 'Delay between a post’s scheduled time and the start of its publishing (first attempt).',
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 900],
      registers: [],
    }),
    scheduledDue: new Gauge({
      name: 'postwave_scheduled_due',
      help: 'Scheduled posts whose time has come and that no dispatcher has published yet.',
      registers: [],
      async collect() {
        const count = dueHolder.__postwaveDueCounter;
        if (count) this.set(await count().catch(() => Number.NaN));
      },
    }),
  };
}

export function metrics(): PostwaveMetrics {
  holder.__postwaveMetrics ??= create();
  return holder.__postwaveMetrics;
}

/** Records one target's publish; `startedAt` from `performance.now()`. */
export function recordPublish(platform: string, outcome: PublishOutcome, startedAt: number): void {
  const m = metrics();
  m.publishTotal.inc({ platform, outcome });
  m.publishDuration.observe({ platform }, (performance.now() - startedAt) / 1000);
}

/** Records how late a scheduled post started publishing. */
export function recordDispatchLateness(scheduledAt: Date | null, now = Date.now()): void {
  if (!scheduledAt) return;
  metrics().dispatchLateness.observe(Math.max(0, (now - scheduledAt.getTime()) / 1000));
}

/** Installs the scrape-time count behind `postwave_scheduled_due`. */
export function setScheduledDueCounter(count: DueCounter): void {
  dueHolder.__postwaveDueCounter = count;
  const m = metrics();
  const schedule = [
    ['postwave_dispatch_lateness_seconds', m.dispatchLateness],
    ['postwave_scheduled_due', m.scheduledDue],
  ] as const;
  for (const [name, metric] of schedule)
    if (!m.registry.getSingleMetric(name)) m.registry.registerMetric(metric);
}

/** Failed results whose outcome nobody knows: the request may have reached the platform. */
const unknownOutcomeCodes = new Set(['timeout', 'interrupted']);

export function publishOutcome(result: { status: string; error?: { code: string } }): PublishOutcome {
  if (result.status === 'posted') return 'posted';
  return result.error && unknownOutcomeCodes.has(result.error.code) ? 'unknown' : 'failed';
}
