'use client';

import type { CredentialField, CredentialsConnect } from '@postwave/shared/platforms/manifest';
import { type FormEvent, useState } from 'react';
import { PlatformMark } from '#components/account-avatar.tsx';
import { ApiError, api, describeError } from '#components/lib/api.ts';
import { type AccountSummary, accountName, type PlatformManifest } from '#components/lib/platforms.ts';
import { connectBody, fieldForIssue, reconnectValues } from './connect-body.ts';

/** The credentials form of one platform, rendered from its manifest's field descriptors. */
export function ConnectForm({
  manifest,
  connect,
  reconnect,
  onCancel,
  onConnected,
}: {
  manifest: PlatformManifest;
  connect: CredentialsConnect;
  reconnect: AccountSummary | undefined;
  onCancel: () => void;
  onConnected: (account: AccountSummary, reconnected: boolean) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    reconnect ? reconnectValues(connect, reconnect.platformAccountId) : {},
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<{ message: string; hint?: string | undefined }>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const missing: Record<string, string> = {};
    for (const f of connect.fields)
      if (f.required && !values[f.name]?.trim()) missing[f.name] = `Enter the ${f.label.toLowerCase()}.`;
    setErrors(missing);
    setFormError(undefined);
    const firstMissing = connect.fields.find((f) => missing[f.name]);
    if (firstMissing) {
      document.getElementById(`connect-${manifest.id}-${firstMissing.name}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const account = await api<AccountSummary>('POST', '/api/v1/accounts', {
        ...connectBody(manifest.id, connect, values),
        ...(reconnect?.label ? { label: reconnect.label } : {}),
      });
      onConnected(account, Boolean(reconnect));
    } catch (e) {
      if (e instanceof ApiError) {
        const byField: Record<string, string> = {};
        for (const issue of e.errors) {
          const field = fieldForIssue(connect, issue.path);
          if (field) byField[field.name] = issue.message;
        }
        setErrors(byField);
        setFormError({ message: e.message, hint: e.hint });
        const first = connect.fields.find((f) => byField[f.name]);
        if (first) document.getElementById(`connect-${manifest.id}-${first.name}`)?.focus();
      } else {
        setFormError({ message: describeError(e) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      className="card card-body stack"
      aria-label={`Connect ${manifest.name}`}
      noValidate
    >
      <div className="row">
        <PlatformMark platform={manifest.id} />
        <h3>{reconnect ? `Reconnect ${accountName(reconnect)}` : `Connect ${manifest.name}`}</h3>
      </div>
      <p className="muted small">{connect.intro}</p>
      {formError && (
        // The hint (what to do: check the token, the address, wait) sits inside the alert, so a
        // screen reader announces it with the message.
        <div className="alert alert-error stack" style={{ gap: 4 }} role="alert" data-testid="connect-error">
          <p>{formError.message}</p>
          {formError.hint && (
            <p className="small" data-testid="connect-error-hint">
              {formError.hint}
            </p>
          )}
        </div>
      )}
      {connect.fields.map((f) => {
        const id = `connect-${manifest.id}-${f.name}`;
        const note = errors[f.name] ?? f.help;
        return (
          <div className="field" key={f.name}>
            <label htmlFor={id}>{f.label}</label>
            <CredentialInput
              id={id}
              field={f}
              value={values[f.name] ?? ''}
              invalid={Boolean(errors[f.name])}
              describedBy={note ? `${id}-note` : undefined}
              onChange={(value) => setValues({ ...values, [f.name]: value })}
            />
            {note && (
              <p className={errors[f.name] ? 'field-error' : 'hint'} id={`${id}-note`}>
                {note}
              </p>
            )}
          </div>
        );
      })}
      <div className="row">
        {/* aria-disabled, not disabled: the pressed button keeps the focus while the platform answers. */}
        <button type="submit" className="btn btn-primary" aria-disabled={busy}>
          {busy ? `Checking with ${manifest.name}…` : reconnect ? 'Reconnect' : 'Connect'}
        </button>
        <button type="button" className="btn" onClick={() => !busy && onCancel()} aria-disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One credential field as its manifest kind says: a text-like input, a select or a multi-line box (a key file). */
function CredentialInput({
  id,
  field,
  value,
  invalid,
  describedBy,
  onChange,
}: {
  id: string;
  field: CredentialField;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (value: string) => void;
}) {
  const common = {
    id,
    required: field.required,
    'aria-required': field.required || undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
  };
  if (field.type === 'select') {
    return (
      <select {...common} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        {/* An empty first choice, so nothing is chosen for the user; a required field says so when sent. */}
        <option value="">{field.placeholder ?? 'Choose…'}</option>
        {field.choices?.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  }
  if (field.type === 'textarea') {
    return (
      <textarea
        {...common}
        className="textarea"
        rows={6}
        placeholder={field.placeholder}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <input
      {...common}
      className="input"
      type={field.type}
      placeholder={field.placeholder}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
