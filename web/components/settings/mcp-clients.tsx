'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState } from 'react';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

export interface McpClientRow {
  clientId: string;
  name: string | null;
  redirectHost: string | null;
  connectedAt: string;
  lastUsedAt: string;
}

/**
 * Connected MCP clients (AI assistants) with a confirmed Revoke each. A revoke takes the row and its
 * button away: what happened is said in a status that takes the focus (not <body>).
 */
export function McpClients({ clients, timezone }: { clients: McpClientRow[]; timezone: string }) {
  const { locale } = useTimeSettings();
  const router = useRouter();
  const [revoked, setRevoked] = useState<string>();
  const revokedRef = useRef<HTMLParagraphElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const outcome = revoked && (
    <p className="alert alert-ok" role="status" ref={revokedRef} tabIndex={-1}>
      {revoked}
    </p>
  );
  if (clients.length === 0) {
    return (
      <>
        {outcome}
        <EmptyState icon="assistant" title="No assistants connected">
          When you approve an MCP client (such as an AI assistant) to post for you, it appears here and you
          can revoke its access.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {outcome}
      <table className="table">
        <thead>
          <tr>
            <th>Client</th>
            <th className="hide-sm">Connected</th>
            <th>Last used</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => {
            const name = c.name ?? 'Unnamed application';
            return (
              <tr key={c.clientId}>
                <td>
                  <div className="cell-title">{name}</div>
                  {c.redirectHost && <div className="cell-sub">Returns to {c.redirectHost}</div>}
                </td>
                <td className="hide-sm">{formatDateTime(c.connectedAt, timezone, locale)}</td>
                <td>{formatDateTime(c.lastUsedAt, timezone, locale)}</td>
                <td style={{ textAlign: 'right' }}>
                  <ConfirmButton
                    label="Revoke"
                    className="btn btn-sm btn-ghost"
                    title={`Disconnect “${name}”?`}
                    body="It can no longer read or post as you. To use it again, you will have to approve it again."
                    confirmLabel="Revoke access"
                    onConfirm={async () => {
                      await api(
                        'DELETE',
                        `/api/v1/mcp-clients?${new URLSearchParams({ clientId: c.clientId })}`,
                      );
                      setRevoked(`Revoked the access of ${name}.`);
                      focusAfterRender(revokedRef);
                      router.refresh();
                    }}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

/**
 * "Assistants must confirm": assistants whose app cannot ask you in the conversation (no MCP
 * elicitation) save a draft and give you a link to approve it, instead of publishing.
 */
export function AssistantConfirmSetting({ enabled }: { enabled: boolean }) {
  const router = useRouter();
  const [value, setValue] = useState(enabled);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const hintId = useId();
  return (
    <div className="stack" style={{ gap: 6 }}>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={value}
          // aria-disabled while saving, not disabled: a disabled checkbox drops the focus to <body>.
          aria-disabled={saving || undefined}
          aria-busy={saving || undefined}
          aria-describedby={hintId}
          onClick={(event) => {
            if (saving) event.preventDefault();
          }}
          onChange={async (event) => {
            const next = event.currentTarget.checked;
            setValue(next);
            setSaving(true);
            setError(null);
            setSaved(false);
            try {
              await api('PUT', '/api/v1/mcp-clients/settings', { assistantsMustConfirm: next });
              setSaved(true);
              router.refresh();
            } catch (e) {
              setValue(!next);
              setError(describeError(e));
            } finally {
              setSaving(false);
            }
          }}
        />
        <strong>Assistants must confirm</strong>
      </label>
      <p id={hintId} className="muted small">
        Assistants always ask you before publishing or scheduling when their app can show you a question. With
        this on, an assistant whose app cannot ask saves a draft instead and gives you a link to review and
        approve it.
      </p>
      <p className="small" role="status" aria-live="polite">
        {saved ? (value ? 'Assistants now need your approval.' : 'Assistants can publish as asked.') : ''}
      </p>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
