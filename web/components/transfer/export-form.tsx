'use client';

import { type FormEvent, useState } from 'react';
import { FieldError, invalidProps } from '../field-error.tsx';
import { ApiError, describeError } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { statusLabel } from '../posts/status.tsx';

const toErrorId = 'export-to-error';
const formErrorId = 'export-error';

/**
 * A GET form (without JavaScript the browser downloads the streamed export itself). With it, the
 * form checks its dates first and fetches the export, so a refusal is shown here, in the app,
 * instead of the browser leaving for a raw problem+json page; the answer is saved as a download.
 */
export function ExportForm({ statuses }: { statuses: readonly string[] }) {
  const focusAfterRender = useFocusAfterRender();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [toError, setToError] = useState<string>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setError(undefined);
    setDone('');
    // The server's rule (from inclusive, until exclusive): until must come after from.
    if (from && to && from >= to) {
      setToError('Choose an Until date after the From date.');
      focusAfterRender('export-to');
      return;
    }
    setToError(undefined);
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) query.append(name, String(value));
    setBusy(true);
    try {
      const response = await fetch(`/api/v1/posts/export?${query}`, { credentials: 'same-origin' });
      if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
      const name =
        /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'posts-export';
      download(await response.blob(), name);
      setDone(`Export downloaded: ${name}`);
    } catch (caught) {
      setError(describeError(caught));
      focusAfterRender(formErrorId);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      method="get"
      action="/api/v1/posts/export"
      className="stack"
      style={{ gap: 8 }}
      onSubmit={submit}
      noValidate
    >
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <div className="field">
          <label htmlFor="export-format">Format</label>
          <select id="export-format" name="format" className="input" defaultValue="csv">
            <option value="csv">CSV</option>
            <option value="json">JSON</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="export-status">Status</label>
          <select id="export-status" name="status" className="input" defaultValue="">
            <option value="">All</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="export-from">From (UTC)</label>
          <input
            id="export-from"
            name="from"
            type="date"
            className="input"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="export-to">Until, not including (UTC)</label>
          <input
            id="export-to"
            name="to"
            type="date"
            className="input"
            value={to}
            onChange={(e) => {
              setTo(e.target.value);
              setToError(undefined);
            }}
            {...invalidProps(toErrorId, toError)}
          />
          <FieldError id={toErrorId}>{toError}</FieldError>
        </div>
      </div>
      <div className="row">
        {/* aria-disabled, not disabled: the pressed button keeps the focus while it works. */}
        <button type="submit" className="btn" aria-disabled={busy}>
          {busy ? 'Preparing export…' : 'Download export'}
        </button>
      </div>
      {error && (
        <p className="alert alert-error" id={formErrorId} role="alert" tabIndex={-1}>
          {error}
        </p>
      )}
      <p className="sr-only" role="status">
        {done}
      </p>
    </form>
  );
}

/** Saves a fetched file through a temporary link (the browser's ordinary download). */
function download(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob once the click's task ran.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
