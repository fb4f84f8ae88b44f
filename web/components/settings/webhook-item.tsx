'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { ConfirmButton } from '../confirm-button.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { WebhookDeliveryLog } from './webhook-delivery-log.tsx';
import { attemptSummary, type Delivery, type WebhookRow } from './webhook-types.ts';

/** One endpoint: its state and notices, test, log, rotate and delete. */
export function WebhookItem({
  hook,
  timezone,
  onSecret,
  announce,
  onDeleted,
}: {
  hook: WebhookRow;
  timezone: string;
  onSecret: (secret: string) => void;
  announce: (text: string) => void;
  /** After the delete: hands the focus on (this item and its buttons are about to go). */
  onDeleted: () => void;
}) {
  const { locale } = useTimeSettings();
  const router = useRouter();
  const logId = useId();
  const [open, setOpen] = useState(false);
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const { busy, error, setError, run } = useBusyAction();
  const focusAfterRender = useFocusAfterRender();
  const headingId = `${logId}-url`;

  const loadLog = async () => {
    try {
      const page = await api<{ deliveries: Delivery[] }>(
        'GET',
        `/api/v1/webhooks/${hook.id}/deliveries?limit=50`,
      );
      setDeliveries(page.deliveries);
    } catch (e) {
      setError(describeError(e));
    }
  };

  const sendTest = () =>
    run('test', async () => {
      const delivery = await api<Delivery>('POST', `/api/v1/webhooks/${hook.id}/test`);
      const last = delivery.attemptLog[0];
      announce(
        delivery.status === 'delivered'
          ? `Test event delivered to ${hook.url}: ${attemptSummary(last)}.`
          : `Test event not delivered to ${hook.url}: ${attemptSummary(last)}. It will be retried.`,
      );
      setOpen(true);
      await loadLog();
      router.refresh();
    });

  return (
    <li className="card" aria-labelledby={headingId} data-webhook-id={hook.id}>
      <div className="card-body stack" style={{ gap: 8 }}>
        <div className="row" style={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <div>
            {/* tabIndex -1: it takes the focus when "Turn on again" goes (the notice with it). */}
            <h3 id={headingId} className="cell-title mono" style={{ wordBreak: 'break-all' }} tabIndex={-1}>
              {hook.url}
            </h3>
            {hook.description && <p className="cell-sub">{hook.description}</p>}
            <p className="cell-sub">{hook.events.join(', ')}</p>
          </div>
          <span className={hook.enabled ? 'badge badge-ok' : 'badge badge-failed'}>
            {hook.enabled ? 'Enabled' : 'Disabled'}
          </span>
        </div>
        {!hook.enabled && (
          <div className="alert alert-error" role="note">
            <p>
              <strong>This endpoint is turned off.</strong> {hook.disabledReason}
              {hook.disabledAt && ` (since ${formatDateTime(hook.disabledAt, timezone, locale)})`} Deliveries
              wait until it is on again.
            </p>
            {/* aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
                Once it is on, the notice and this button go: the endpoint's heading takes the
                focus (the live region says it is on again). */}
            <button
              type="button"
              className="btn btn-sm"
              aria-disabled={busy !== undefined}
              onClick={() =>
                busy === undefined &&
                run('enable', async () => {
                  await api('PATCH', `/api/v1/webhooks/${hook.id}`, { enabled: true });
                  announce(`${hook.url} is turned on again.`);
                  focusAfterRender(headingId);
                  router.refresh();
                })
              }
            >
              Turn on again
            </button>
          </div>
        )}
        {hook.enabled && hook.failingSince && (
          <p className="alert alert-warn">
            Deliveries have been failing since {formatDateTime(hook.failingSince, timezone, locale)}. After 24
            hours of failures the endpoint is turned off.
          </p>
        )}
        {hook.previousSecretExpiresAt && (
          <p className="muted small">
            The previous secret still signs until{' '}
            {formatDateTime(hook.previousSecretExpiresAt, timezone, locale)}.
          </p>
        )}
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
        <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
          {/* aria-disabled, not disabled: the pressed button keeps the focus while it sends. */}
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => busy === undefined && sendTest()}
            aria-disabled={busy !== undefined}
          >
            {busy === 'test' ? 'Sending…' : 'Send test event'}
          </button>
          <button
            type="button"
            className="btn btn-sm"
            aria-expanded={open}
            aria-controls={`${logId}-log`}
            onClick={async () => {
              const next = !open;
              setOpen(next);
              if (next) await loadLog();
            }}
          >
            {open ? 'Hide delivery log' : 'Delivery log'}
          </button>
          <ConfirmButton
            label="Rotate secret"
            danger={false}
            title={`Rotate the secret of ${hook.url}?`}
            body="You get a new secret to copy. For 24 hours deliveries are signed with both the old and the new one, so you can update your receiver without missing events."
            confirmLabel="Rotate"
            onConfirm={async () => {
              const rotated = await api<{ secret: string }>(
                'POST',
                `/api/v1/webhooks/${hook.id}/rotate-secret`,
              );
              onSecret(rotated.secret);
              router.refresh();
            }}
          />
          <ConfirmButton
            label="Delete"
            className="btn btn-sm btn-ghost"
            title={`Delete the endpoint ${hook.url}?`}
            body="Nothing more is sent to it, and its delivery log is deleted."
            confirmLabel="Delete"
            onConfirm={async () => {
              await api('DELETE', `/api/v1/webhooks/${hook.id}`);
              announce(`${hook.url} deleted.`);
              onDeleted();
              router.refresh();
            }}
          />
        </div>
        {open && (
          <WebhookDeliveryLog
            id={`${logId}-log`}
            url={hook.url}
            deliveries={deliveries}
            timezone={timezone}
            busy={busy !== undefined}
            onRefresh={() => run('refresh', loadLog)}
            onRedeliver={(d) =>
              run(`redeliver-${d.id}`, async () => {
                await api('POST', `/api/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
                announce(`${d.eventType} queued for redelivery.`);
                // The worker sends it within moments; show the result.
                await new Promise((r) => setTimeout(r, 1500));
                await loadLog();
              })
            }
          />
        )}
      </div>
    </li>
  );
}
