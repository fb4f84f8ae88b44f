import type { PostMetricName } from '@postwave/shared/analytics/metrics';
import { formatDateTime } from '#components/lib/time.ts';
import type { PostMetricsView } from '#server/analytics/schema.ts';
import { collectionNotes, formatCount, metricLabels } from './labels.ts';
import { RefreshMetricsButton } from './refresh-button.tsx';

const fixedNotes: Record<string, string> = {
  gone: 'The post was deleted on the platform; these are its last figures.',
  unsupported: 'This platform reports no figures for posts.',
};

/** The post page's figures: one table per network it went to, and a refresh (docs/analytics.md). */
export function PostMetricsSection({
  postId,
  metrics,
  names,
  timezone,
  collectAfterMs,
}: {
  postId: string;
  metrics: PostMetricsView;
  names: Map<string, string>;
  timezone: string;
  /** The server's collection offsets (`ANALYTICS_COLLECT_AFTER`), which the notes describe. */
  collectAfterMs: readonly number[];
}) {
  if (metrics.targets.length === 0) return null;
  const stateNotes: Record<string, string> = { ...fixedNotes, ...collectionNotes(collectAfterMs) };
  return (
    <section className="card" aria-labelledby="metrics-title" data-testid="post-metrics">
      <div className="card-head">
        <h2 id="metrics-title">Metrics</h2>
      </div>
      <div className="card-body stack">
        {metrics.targets.map((target) => {
          const name = names.get(target.accountId) ?? 'Disconnected account';
          const rows = target.supported as PostMetricName[];
          return (
            <div key={target.accountId} className="stack">
              {rows.length === 0 ? (
                <p className="small muted">
                  {name}: {stateNotes.unsupported}
                </p>
              ) : (
                <table className="table metrics-table">
                  <caption className="small" style={{ textAlign: 'left' }}>
                    {name}
                    {target.collectedAt
                      ? ` · collected ${formatDateTime(target.collectedAt, timezone)}`
                      : ' · not collected yet'}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Metric</th>
                      <th scope="col">Value</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((m) => (
                      <tr key={m}>
                        <th scope="row">{metricLabels[m]}</th>
                        <td>{formatCount(target.metrics[m])}</td>
                      </tr>
                    ))}
                    <tr>
                      <th scope="row">Engagement</th>
                      <td>{formatCount(target.engagement)}</td>
                    </tr>
                  </tbody>
                </table>
              )}
              {rows.length > 0 && <p className="small muted">{stateNotes[target.metricsState]}</p>}
            </div>
          );
        })}
        {/* Nothing to ask for when no network of the post reports figures (Telegram, Discord). */}
        {metrics.targets.some((t) => t.supported.length > 0) && <RefreshMetricsButton postId={postId} />}
      </div>
    </section>
  );
}
