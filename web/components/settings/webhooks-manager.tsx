'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { EmptyState } from '../empty-state.tsx';
import { api, describeError } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { WebhookItem } from './webhook-item.tsx';
import { eventHelp, type WebhookRow } from './webhook-types.ts';

export type { WebhookRow } from './webhook-types.ts';

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
  const urlRef = useRef<HTMLInputElement>(null);
  const focusAfterRender = useFocusAfterRender();
  // A refusal is said at the URL field (it describes it): the field takes the focus to hear it.
  const refuse = (text: string) => {
    setError(text);
    focusAfterRender(urlRef);
  };

  const listRef = useRef<HTMLUListElement>(null);
  /**
   * A deleted endpoint's buttons go with it: the focus moves to the next endpoint's heading, else
   * the previous one's, else the "Add an endpoint" heading (the live region says it was deleted).
   */
  const focusAfterDelete = (id: string) => {
    const at = webhooks.findIndex((h) => h.id === id);
    const neighbour = webhooks[at + 1] ?? webhooks[at - 1];
    focusAfterRender(() =>
      neighbour
        ? listRef.current?.querySelector<HTMLElement>(`[data-webhook-id="${neighbour.id}"] h3`)
        : document.getElementById(`${formId}-title`),
    );
  };

  const showSecret = (value: { url: string; secret: string; rotated: boolean }) => setSecret(value);
  // Move focus to a new secret so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (secret) secretRef.current?.focus();
  }, [secret]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!url.trim()) return refuse('Enter the https URL that should receive the events.');
    if (chosen.length === 0) return refuse('Choose at least one event.');
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
      refuse(describeError(e));
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
        <h3 id={`${formId}-title`} className="section-title" tabIndex={-1}>
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
            ref={urlRef}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${formId}-url-hint ${formId}-error` : `${formId}-url-hint`}
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
          {/* aria-disabled, not disabled: a disabled button drops the focus to <body>. */}
          <button type="submit" className="btn btn-primary" aria-disabled={busy}>
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
        <EmptyState icon="webhook" title="No webhook endpoints">
          Webhooks tell your systems when a post is published or fails, or an account needs attention.
        </EmptyState>
      ) : (
        <ul className="list stack" aria-label="Webhook endpoints" ref={listRef}>
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
              onDeleted={() => focusAfterDelete(hook.id)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

export function CopyButton({ text }: { text: string }) {
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
