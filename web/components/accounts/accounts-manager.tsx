'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useRef, useState } from 'react';
import { AccountAvatar, PlatformMark } from '../account-avatar.tsx';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { ApiError, api, describeError } from '../lib/api.ts';
import { type AccountSummary, accountHandle, accountName, platformMeta } from '../lib/platforms.ts';
import { connectSpecs } from './connect-forms.ts';

const pickerOrder = ['telegram', 'bluesky', 'mastodon', 'discord', 'youtube'];

export function AccountsManager({
  accounts,
  notice,
}: {
  accounts: AccountSummary[];
  notice?: { kind: 'ok' | 'error' | 'info'; text: string };
}) {
  const router = useRouter();
  const [connecting, setConnecting] = useState<{ platform: string; reconnect?: AccountSummary }>();
  const [message, setMessage] = useState(notice);
  const formRef = useRef<HTMLDivElement>(null);

  const start = (platform: string, reconnect?: AccountSummary) => {
    if (platform === 'youtube') {
      window.location.assign('/api/v1/accounts/connect/youtube');
      return;
    }
    setConnecting({ platform, reconnect });
    setMessage(undefined);
    requestAnimationFrame(() => formRef.current?.querySelector('input')?.focus());
  };

  return (
    <div className="stack" style={{ gap: 24 }}>
      {message && (
        <p className={`alert alert-${message.kind}`} role="status">
          {message.text}
        </p>
      )}
      <section className="card" aria-labelledby="connected-title">
        <div className="card-head">
          <h2 id="connected-title">Connected accounts</h2>
          <span className="muted small">{accounts.length} connected</span>
        </div>
        {accounts.length === 0 ? (
          <EmptyState icon="＋" title="No accounts yet">
            Connect a channel below. Postwave checks the credentials with the platform before saving them.
          </EmptyState>
        ) : (
          <div className="card-body">
            <ul className="account-grid list" aria-label="Connected accounts">
              {accounts.map((account) => (
                <AccountCard
                  key={account.id}
                  account={account}
                  onReconnect={() => start(account.platform, account)}
                  onChanged={(text) => {
                    setMessage({ kind: 'ok', text });
                    router.refresh();
                  }}
                />
              ))}
            </ul>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="connect-title">
        <div className="card-head">
          <h2 id="connect-title">Connect an account</h2>
        </div>
        <div className="card-body stack">
          <div className="platform-picker">
            {pickerOrder.map((id) => {
              const meta = platformMeta(id);
              return (
                <button
                  key={id}
                  type="button"
                  className="platform-option"
                  aria-pressed={connecting?.platform === id}
                  onClick={() => start(id)}
                >
                  <PlatformMark platform={id} />
                  {id === 'youtube' ? 'Connect with Google' : meta.name}
                </button>
              );
            })}
          </div>
          <div ref={formRef}>
            {connecting && connectSpecs[connecting.platform] && (
              <ConnectForm
                key={`${connecting.platform}-${connecting.reconnect?.id ?? 'new'}`}
                platform={connecting.platform}
                reconnect={connecting.reconnect}
                onCancel={() => setConnecting(undefined)}
                onConnected={(account, reconnected) => {
                  setConnecting(undefined);
                  setMessage({
                    kind: 'ok',
                    text: `${reconnected ? 'Reconnected' : 'Connected'} ${accountName(account)} on ${platformMeta(account.platform).name}.`,
                  });
                  router.refresh();
                }}
              />
            )}
          </div>
        </div>
      </section>
    </div>
  );
}

function AccountCard({
  account,
  onReconnect,
  onChanged,
}: {
  account: AccountSummary;
  onReconnect: () => void;
  onChanged: (message: string) => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [label, setLabel] = useState(account.label ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const name = accountName(account);
  const healthy = account.status === 'active';

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      await api('PATCH', `/api/v1/accounts/${account.id}`, { label: label.trim() || null });
      setRenaming(false);
      onChanged(`Renamed to ${label.trim() || account.username || account.platformAccountId}.`);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <li
      className="card account-card"
      data-testid="account-card"
      aria-label={`${name} on ${platformMeta(account.platform).name}`}
    >
      <div className="account-top">
        <AccountAvatar account={account} />
        <div className="meta">
          <strong>{name}</strong>
          <span>
            {platformMeta(account.platform).name} · {accountHandle(account)}
          </span>
        </div>
        {healthy ? (
          <span className="badge badge-ok">Working</span>
        ) : (
          <span className="badge badge-needs">Needs reconnect</span>
        )}
      </div>
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
            />
          </div>
          {error && <p className="field-error">{error}</p>}
          <div className="row">
            <button type="submit" className="btn btn-primary btn-sm" disabled={saving}>
              Save
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="account-actions">
          {!healthy && (
            <button type="button" className="btn btn-primary btn-sm" onClick={onReconnect}>
              Reconnect
            </button>
          )}
          <button type="button" className="btn btn-sm" onClick={() => setRenaming(true)}>
            Rename
          </button>
          {healthy && (
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

function ConnectForm({
  platform,
  reconnect,
  onCancel,
  onConnected,
}: {
  platform: string;
  reconnect: AccountSummary | undefined;
  onCancel: () => void;
  onConnected: (account: AccountSummary, reconnected: boolean) => void;
}) {
  const spec = connectSpecs[platform]!;
  const meta = platformMeta(platform);
  const [values, setValues] = useState<Record<string, string>>(() => {
    const initial: Record<string, string> = {};
    if (reconnect && platform === 'telegram') initial.chat = reconnect.platformAccountId;
    return initial;
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    for (const f of spec.fields)
      if (f.required && !values[f.name]?.trim()) missing[f.name] = `Enter the ${f.label.toLowerCase()}.`;
    setErrors(missing);
    setFormError(undefined);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const account = await api<AccountSummary>('POST', '/api/v1/accounts', {
        ...spec.toBody(values),
        ...(reconnect?.label ? { label: reconnect.label } : {}),
      });
      onConnected(account, Boolean(reconnect));
    } catch (e) {
      if (e instanceof ApiError) {
        const byField: Record<string, string> = {};
        for (const issue of e.errors) {
          const key = issue.path?.replace(/^credentials\./, '');
          const field =
            spec.fields.find((f) => f.name === key) ??
            (key === 'platformAccountId' ? spec.fields.find((f) => f.name === 'chat') : undefined);
          if (field) byField[field.name] = issue.message;
        }
        setErrors(byField);
        setFormError(e.message);
      } else {
        setFormError(describeError(e));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="card card-body stack" aria-label={`Connect ${meta.name}`} noValidate>
      <div className="row">
        <PlatformMark platform={platform} />
        <h3>{reconnect ? `Reconnect ${accountName(reconnect)}` : `Connect ${meta.name}`}</h3>
      </div>
      <p className="muted small">{spec.intro}</p>
      {formError && (
        <p className="alert alert-error" role="alert">
          {formError}
        </p>
      )}
      {spec.fields.map((f) => {
        const id = `connect-${platform}-${f.name}`;
        return (
          <div className="field" key={f.name}>
            <label htmlFor={id}>{f.label}</label>
            <input
              id={id}
              className="input"
              type={f.type ?? 'text'}
              placeholder={f.placeholder}
              autoComplete="off"
              spellCheck={false}
              value={values[f.name] ?? ''}
              onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
              aria-invalid={errors[f.name] ? true : undefined}
              aria-describedby={errors[f.name] || f.hint ? `${id}-note` : undefined}
            />
            {errors[f.name] ? (
              <p className="field-error" id={`${id}-note`}>
                {errors[f.name]}
              </p>
            ) : (
              f.hint && (
                <p className="hint" id={`${id}-note`}>
                  {f.hint}
                </p>
              )
            )}
          </div>
        );
      })}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? `Checking with ${meta.name}…` : reconnect ? 'Reconnect' : 'Connect'}
        </button>
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
