'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useRef, useState } from 'react';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api, describeError, fieldProblems } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

export interface TokenRow {
  id: string;
  name: string;
  kind: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt?: string | null;
}

export function TokensManager({ tokens, timezone }: { tokens: TokenRow[]; timezone: string }) {
  const { locale } = useTimeSettings();
  const router = useRouter();
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState('90');
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // A revoke removes its row, Revoke button and all: what happened takes the focus instead.
  const [revoked, setRevoked] = useState<string>();
  const revokedRef = useRef<HTMLParagraphElement>(null);
  const focusAfterRender = useFocusAfterRender();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setError('Give the token a name, such as the machine or script that will use it.');
      document.getElementById('token-name')?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const result = await api<{ name: string; token: string }>('POST', '/api/v1/tokens', {
        name: name.trim(),
        expiresInDays: Number(lifetime),
      });
      setCreated(result);
      setCopied(false);
      setName('');
      router.refresh();
    } catch (e) {
      setError(
        fieldProblems(e, { name: (issue) => `Name: ${issue.message}` }).fields.name ?? describeError(e),
      );
      document.getElementById('token-name')?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <form onSubmit={create} className="row" style={{ alignItems: 'flex-end' }} noValidate>
        <div className="field" style={{ flex: 1, minWidth: 220 }}>
          <label htmlFor="token-name">New token name</label>
          <input
            id="token-name"
            className="input"
            value={name}
            maxLength={100}
            placeholder="e.g. Laptop CLI, CI pipeline"
            onChange={(e) => setName(e.target.value)}
            {...invalidProps('token-name-error', error)}
          />
        </div>
        <div className="field">
          <label htmlFor="token-lifetime">Expires after</label>
          <select
            id="token-lifetime"
            className="input"
            value={lifetime}
            onChange={(e) => setLifetime(e.target.value)}
          >
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">1 year</option>
          </select>
        </div>
        {/* aria-disabled, not disabled: the pressed button keeps the focus while it works. */}
        <button type="submit" className="btn btn-primary" aria-disabled={busy}>
          {busy ? 'Creating…' : 'Create token'}
        </button>
      </form>
      <FieldError id="token-name-error">{error}</FieldError>
      {created && (
        <div className="alert alert-ok stack" role="status" style={{ gap: 8 }}>
          <p>
            <strong>{created.name}</strong> created. Copy it now: it will not be shown again.
          </p>
          <div className="token-secret">
            <code data-testid="new-token">{created.token}</code>
            <button
              type="button"
              className="btn btn-sm"
              onClick={async () => {
                await navigator.clipboard?.writeText(created.token).catch(() => {});
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </div>
      )}
      {revoked && (
        <p className="alert alert-ok" role="status" ref={revokedRef} tabIndex={-1}>
          {revoked}
        </p>
      )}
      {tokens.length === 0 ? (
        <EmptyState icon="key" title="No tokens">
          Tokens let the Postwave CLI and your scripts call the API as you. Signing in from the CLI adds one
          here too. Every token expires; CLI tokens 90 days after their last use.
        </EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th className="hide-sm">Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>
                  {t.name} {t.kind === 'cli' && <span className="badge">CLI</span>}
                </td>
                <td className="hide-sm">{formatDateTime(t.createdAt, timezone, locale)}</td>
                <td>
                  {t.lastUsedAt ? (
                    formatDateTime(t.lastUsedAt, timezone, locale)
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td>
                  {t.expiresAt ? (
                    <span title={t.kind === 'cli' ? '90 days after the last use' : undefined}>
                      {new Date(t.expiresAt).getTime() <= Date.now() ? 'Expired ' : ''}
                      {formatDateTime(t.expiresAt, timezone, locale)}
                    </span>
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td style={{ textAlign: 'right' }}>
                  <ConfirmButton
                    label="Revoke"
                    className="btn btn-sm btn-ghost"
                    title={`Revoke “${t.name}”?`}
                    body="Anything using this token stops working immediately."
                    confirmLabel="Revoke"
                    onConfirm={async () => {
                      await api('DELETE', `/api/v1/tokens/${t.id}`);
                      setRevoked(`Revoked “${t.name}”: anything using it stops working.`);
                      focusAfterRender(revokedRef);
                      router.refresh();
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
