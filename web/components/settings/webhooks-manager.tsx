'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

export interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
}

interface Attempt {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  attemptLog: Attempt[];
}

/** What each event means, for the checkboxes. */
const eventHelp: Record<string, string> = {
  'post.published': 'A post went out to every account',
  'post.partially_published': 'A post went out to some accounts and failed on others',
  'post.failed': 'A post failed on every account',
  'post.unknown': 'Whether a post went out could not be told',
  'account.needs_reconnect': 'An account must be connected again',
  'account.disconnected': 'An account was removed',
};

function attemptSummary(a: Attempt | undefined): string {
  if (!a) return 'Not tried yet';
  return `${a.statusCode ? `HTTP ${a.statusCode}` : (a.error ?? 'No answer')} · ${a.durationMs} ms`;
}

export function WebhooksManager({
  webhooks,
  events,
  timezone,
}: {
  webhooks: WebhookRow[];
  events: string[];
  timezone: string;
}) {
  const router = useRouter();
  const formId = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<string[]>([...events]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean }>();
  const [announcement, setAnnouncement] = useState('');
  // A repeated message is still read: clear, then set.
  const announce = (text: string) => {
    setAnnouncement('');
    setTimeout(() => setAnnouncement(text), 50);
  };
  const secretRef = useRef<HTMLDivElement>(null);

  const showSecret = (value: { url: string; secret: string; rotated: boolean }) => setSecret(value);
  // Move focus to a new secret so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (secret) secretRef.current?.focus();
  }, [secret]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!url.trim()) return setError('Enter the https URL that should receive the events.');
    if (chosen.length === 0) return setError('Choose at least one event.');
    setBusy(true);
    setError(undefined);
    try {
      const created = await api<{ url: string; secret: string }>('POST', '/api/v1/webhooks', {
        url: url.trim(),
        events: chosen,
        ...(description.trim() ? { description: description.trim() } : {}),
      });
      showSecret({ url: created.url, secret: created.secret, rotated: false });
      setUrl('');
      setDescription('');
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <p className="sr-only" aria-live="polite" data-testid="webhook-announcement">
        {announcement}
      </p>
      <form onSubmit={create} className="stack" noValidate aria-labelledby={`${formId}-title`}>
        <h3 id={`${formId}-title`} className="section-title">
          Add an endpoint
        </h3>
        <div className="field">
          <label htmlFor={`${formId}-url`}>Endpoint URL</label>
          <input
            id={`${formId}-url`}
            className="input"
            type="url"
            inputMode="url"
            value={url}
            maxLength={2000}
            placeholder="https://example.com/postwave-events"
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${formId}-error` : `${formId}-url-hint`}
          />
          <span className="hint" id={`${formId}-url-hint`}>
            We POST signed events here (Standard Webhooks). https only.
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${formId}-description`}>Description (optional)</label>
          <input
            id={`${formId}-description`}
            className="input"
            value={description}
            maxLength={500}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <fieldset className="field">
          <legend className="label">Events</legend>
          <div className="stack" style={{ gap: 6 }}>
            {events.map((type) => (
              <label className="checkbox" key={type}>
                <input
                  type="checkbox"
                  checked={chosen.includes(type)}
                  onChange={(e) =>
                    setChosen((list) => (e.target.checked ? [...list, type] : list.filter((t) => t !== type)))
                  }
                />
                <span>
                  <code>{type}</code> <span className="muted small">{eventHelp[type] ?? ''}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {error && (
          <p className="field-error" id={`${formId}-error`} role="alert">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add endpoint'}
          </button>
        </div>
      </form>
      {secret && (
        <div
          className="alert alert-ok stack"
          role="status"
          style={{ gap: 8 }}
          tabIndex={-1}
          ref={secretRef}
          aria-labelledby={`${formId}-secret-title`}
        >
          <p id={`${formId}-secret-title`}>
            {secret.rotated ? 'New signing secret' : 'Signing secret'} for <strong>{secret.url}</strong>. Copy
            it now: it will not be shown again.
            {secret.rotated && ' The old secret keeps signing beside it for 24 hours.'}
          </p>
          <div className="token-secret">
            <code data-testid="webhook-secret">{secret.secret}</code>
            <CopyButton text={secret.secret} />
          </div>
        </div>
      )}
      {webhooks.length === 0 ? (
        <EmptyState icon="↗" title="No webhook endpoints">
          Webhooks tell your systems when a post is published or fails, or an account needs attention.
        </EmptyState>
      ) : (
        <ul className="list stack" aria-label="Webhook endpoints">
          {webhooks.map((hook) => (
            <WebhookItem
              key={hook.id}
              hook={hook}
              timezone={timezone}
              onSecret={(value) => {
                showSecret({ url: hook.url, secret: value, rotated: true });
                announce(`New signing secret for ${hook.url} shown above the endpoints: copy it now.`);
              }}
              announce={announce}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-sm"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        setCopied(true);
      }}
    >
      {copied ? 'Copied' : 'Copy secret'}
    </button>
  );
}

function WebhookItem({
  hook,
  timezone,
  onSecret,
  announce,
}: {
  hook: WebhookRow;
  timezone: string;
  onSecret: (secret: string) => void;
  announce: (text: string) => void;
}) {
  const router = useRouter();
  const logId = useId();
  const [open, setOpen] = useState(false);
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();

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

  const run = async (label: string, action: () => Promise<void>) => {
    setBusy(label);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(undefined);
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
    <li className="card" aria-labelledby={`${logId}-url`}>
      <div className="card-body stack" style={{ gap: 8 }}>
        <div className="row" style={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <div>
            <h3 id={`${logId}-url`} className="cell-title mono" style={{ wordBreak: 'break-all' }}>
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
              {hook.disabledAt && ` (since ${formatDateTime(hook.disabledAt, timezone)})`} Deliveries wait
              until it is on again.
            </p>
            <button
              type="button"
              className="btn btn-sm"
              disabled={busy !== undefined}
              onClick={() =>
                run('enable', async () => {
                  await api('PATCH', `/api/v1/webhooks/${hook.id}`, { enabled: true });
                  announce(`${hook.url} is turned on again.`);
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
            Deliveries have been failing since {formatDateTime(hook.failingSince, timezone)}. After 24 hours
            of failures the endpoint is turned off.
          </p>
        )}
        {hook.previousSecretExpiresAt && (
          <p className="muted small">
            The previous secret still signs until {formatDateTime(hook.previousSecretExpiresAt, timezone)}.
          </p>
        )}
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
        <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
          <button type="button" className="btn btn-sm" onClick={sendTest} disabled={busy !== undefined}>
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
              try {
                const rotated = await api<{ secret: string }>(
                  'POST',
                  `/api/v1/webhooks/${hook.id}/rotate-secret`,
                );
                onSecret(rotated.secret);
                router.refresh();
              } catch (e) {
                throw new Error(describeError(e));
              }
            }}
          />
          <ConfirmButton
            label="Delete"
            className="btn btn-sm btn-ghost"
            title={`Delete the endpoint ${hook.url}?`}
            body="Nothing more is sent to it, and its delivery log is deleted."
            confirmLabel="Delete"
            onConfirm={async () => {
              try {
                await api('DELETE', `/api/v1/webhooks/${hook.id}`);
              } catch (e) {
                throw new Error(describeError(e));
              }
              announce(`${hook.url} deleted.`);
              router.refresh();
            }}
          />
        </div>
        {open && (
          <section
            id={`${logId}-log`}
            aria-label={`Delivery log of ${hook.url}`}
            className="stack"
            style={{ gap: 8 }}
          >
            <div className="row" style={{ justifyContent: 'space-between' }}>
              <h4 className="section-title">Delivery log</h4>
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => run('refresh', loadLog)}>
                Refresh
              </button>
            </div>
            {deliveries === undefined ? (
              <p className="muted">Loading…</p>
            ) : deliveries.length === 0 ? (
              <p className="muted">No deliveries yet. Send a test event to try the endpoint.</p>
            ) : (
              <table className="table" data-testid="delivery-log">
                <caption className="sr-only">Deliveries to {hook.url}, newest first</caption>
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
                          {d.status === 'delivered'
                            ? 'Delivered'
                            : d.status === 'failed'
                              ? 'Failed'
                              : 'Pending'}
                        </span>
                        <span className="cell-sub">
                          {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                          {d.status === 'pending' && d.nextAttemptAt
                            ? ` · next ${formatDateTime(d.nextAttemptAt, timezone)}`
                            : ''}
                        </span>
                      </td>
                      <td>
                        {attemptSummary(d.attemptLog[0])}
                        {d.attemptLog[0]?.error && d.attemptLog[0].statusCode !== null && (
                          <span className="cell-sub">{d.attemptLog[0].error}</span>
                        )}
                      </td>
                      <td className="hide-sm">{formatDateTime(d.createdAt, timezone)}</td>
                      <td style={{ textAlign: 'right' }}>
                        <button
                          type="button"
                          className="btn btn-sm btn-ghost"
                          disabled={busy !== undefined}
                          aria-label={`Redeliver ${d.eventType} from ${formatDateTime(d.createdAt, timezone)}`}
                          onClick={() =>
                            run(`redeliver-${d.id}`, async () => {
                              await api('POST', `/api/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
                              announce(`${d.eventType} queued for redelivery.`);
                              // The worker sends it within moments; show the result.
                              await new Promise((r) => setTimeout(r, 1500));
                              await loadLog();
                            })
                          }
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
        )}
      </div>
    </li>
  );
}
