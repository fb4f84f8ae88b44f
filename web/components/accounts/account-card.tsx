'use client';

import { type FormEvent, useRef, useState } from 'react';
import { AccountAvatar } from '#components/account-avatar.tsx';
import { ConfirmButton } from '#components/confirm-button.tsx';
import { FieldError, invalidProps } from '#components/field-error.tsx';
import { api, describeError } from '#components/lib/api.ts';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import { formatDateTime } from '#components/lib/time.ts';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import { HealthBadge, healthCopy } from './health.tsx';

/** One connected account: its health, rename, reconnect and disconnect. */
export function AccountCard({
  account,
  onReconnect,
  onChanged,
}: {
  account: AccountSummary;
  /** Undefined for a platform this build does not know. */
  onReconnect: (() => void) | undefined;
  /** `focus: false` when the focus already has a place (the Rename button after a rename). */
  onChanged: (message: string, focus?: boolean) => void;
}) {
  const { timeZone, locale } = useTimeSettings();
  const [renaming, setRenaming] = useState(false);
  const [label, setLabel] = useState(account.label ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const name = accountName(account);
  // needs_reconnect (health or status, which a refused publish sets) and expiring call for a reconnect.
  const health = account.status === 'needs_reconnect' ? 'needs_reconnect' : account.health;
  const healthy = health === 'ok' || health === 'unreachable';
  const checked = account.healthCheckedAt ? new Date(account.healthCheckedAt) : undefined;

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(undefined);
    try {
      await api('PATCH', `/api/v1/accounts/${account.id}`, { label: label.trim() || null });
      closeRename();
      onChanged(`Renamed to ${label.trim() || account.username || account.platformAccountId}.`, false);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setSaving(false);
    }
  };

  // The form and the Rename button replace each other: the focus goes with them, never to <body>.
  const openRename = () => {
    setRenaming(true);
    focusAfterRender(`label-${account.id}`);
  };
  const closeRename = () => {
    setRenaming(false);
    setError(undefined);
    focusAfterRender(renameButton);
  };

  return (
    <li
      className="card account-card"
      data-testid="account-card"
      aria-label={`${name} on ${platformName(account.platform)}`}
    >
      <div className="account-top">
        <AccountAvatar account={account} />
        <div className="meta">
          <strong>{name}</strong>
          <span>
            {platformName(account.platform)} · {accountHandle(account)}
          </span>
        </div>
        <HealthBadge health={health} />
      </div>
      {health === 'needs_reconnect' && (
        <p className="hint small" data-testid="reconnect-hint">
          {platformName(account.platform)} no longer accepts this connection (access was revoked, expired or
          the password changed). Posts to it fail until you reconnect: choose Reconnect and sign in as {name}{' '}
          again. Its posts and schedule stay as they are.
        </p>
      )}
      {(health === 'expiring' || health === 'unreachable') && (
        <p className="hint small" data-testid="health-hint">
          {account.healthReason ?? healthCopy[health].advice}
          {health === 'expiring' &&
            ' Choose Reconnect and sign in again; its posts and schedule stay as they are.'}
          {/* The check's reason says what failed; only the hint says what to do about it. */}
          {health === 'unreachable' && account.healthReason && ` ${healthCopy.unreachable.advice}`}
        </p>
      )}
      {checked && (
        <p className="muted small">
          Last checked{' '}
          <time dateTime={checked.toISOString()}>{formatDateTime(checked, timeZone, locale)}</time>
        </p>
      )}
      {renaming ? (
        <form onSubmit={rename} className="stack" style={{ gap: 8 }}>
          <div className="field">
            <label htmlFor={`label-${account.id}`}>Display name</label>
            <input
              id={`label-${account.id}`}
              className="input"
              value={label}
              maxLength={100}
              onChange={(e) => setLabel(e.target.value)}
              {...invalidProps(`label-${account.id}-error`, error)}
            />
            <FieldError id={`label-${account.id}-error`}>{error}</FieldError>
          </div>
          <div className="row">
            {/* aria-disabled, not disabled: the pressed button keeps the focus while it works. */}
            <button type="submit" className="btn btn-primary btn-sm" aria-disabled={saving}>
              Save
            </button>
            <button type="button" className="btn btn-sm" onClick={closeRename}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="account-actions">
          {!healthy && onReconnect && (
            <button type="button" className="btn btn-primary btn-sm" onClick={onReconnect}>
              Reconnect
            </button>
          )}
          <button type="button" className="btn btn-sm" ref={renameButton} onClick={openRename}>
            Rename
          </button>
          {healthy && onReconnect && (
            <button type="button" className="btn btn-sm btn-ghost" onClick={onReconnect}>
              Update credentials
            </button>
          )}
          <span className="spacer" />
          <ConfirmButton
            label="Disconnect"
            className="btn btn-sm btn-ghost"
            title={`Disconnect ${name}?`}
            body="Scheduled posts lose this account as a target; a post left with no account becomes a draft. Posts already published stay where they are."
            confirmLabel="Disconnect"
            onConfirm={async () => {
              await api('DELETE', `/api/v1/accounts/${account.id}`);
              onChanged(`Disconnected ${name}.`);
            }}
          />
        </div>
      )}
    </li>
  );
}
