'use client';

import { useTimeSettings } from '#components/lib/time-context.tsx';
import { formatDateTime } from '../lib/time.ts';
import { attemptSummary, type Delivery } from './webhook-types.ts';

/** One endpoint's deliveries, newest first, each with its last attempt and a Redeliver button. */
export function WebhookDeliveryLog({
  id,
  url,
  deliveries,
  timezone,
  busy,
  onRefresh,
  onRedeliver,
}: {
  id: string;
  url: string;
  deliveries: Delivery[] | undefined;
  timezone: string;
  busy: boolean;
  onRefresh: () => void;
  onRedeliver: (delivery: Delivery) => void;
}) {
  const { locale } = useTimeSettings();
  return (
    <section id={id} aria-label={`Delivery log of ${url}`} className="stack" style={{ gap: 8 }}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h4 className="section-title">Delivery log</h4>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {deliveries === undefined ? (
        <p className="muted">Loading…</p>
      ) : deliveries.length === 0 ? (
        <p className="muted">No deliveries yet. Send a test event to try the endpoint.</p>
      ) : (
        <table className="table" data-testid="delivery-log">
          <caption className="sr-only">Deliveries to {url}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Last attempt</th>
              <th scope="col" className="hide-sm">
                Created
              </th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td>
                  <code>{d.eventType}</code>
                </td>
                <td>
                  <span
                    className={
                      d.status === 'delivered'
                        ? 'badge badge-ok'
                        : d.status === 'failed'
                          ? 'badge badge-failed'
                          : 'badge badge-warn'
                    }
                  >
                    {d.status === 'delivered' ? 'Delivered' : d.status === 'failed' ? 'Failed' : 'Pending'}
                  </span>
                  <span className="cell-sub">
                    {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                    {d.status === 'pending' && d.nextAttemptAt
                      ? ` · next ${formatDateTime(d.nextAttemptAt, timezone, locale)}`
                      : ''}
                  </span>
                </td>
                <td>
                  {attemptSummary(d.attemptLog[0])}
                  {d.attemptLog[0]?.error && d.attemptLog[0].statusCode !== null && (
                    <span className="cell-sub">{d.attemptLog[0].error}</span>
                  )}
                </td>
                <td className="hide-sm">{formatDateTime(d.createdAt, timezone, locale)}</td>
                <td style={{ textAlign: 'right' }}>
                  <button
                    type="button"
                    className="btn btn-sm btn-ghost"
                    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
                    aria-disabled={busy || undefined}
                    aria-label={`Redeliver ${d.eventType} from ${formatDateTime(d.createdAt, timezone, locale)}`}
                    onClick={() => busy || onRedeliver(d)}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
