'use client';

import { useId, useState } from 'react';
import type { SnippetSummary } from '#components/compose/signatures.ts';
import { FieldError, invalidProps } from '#components/field-error.tsx';
import { type AccountSummary, accountName, platformName } from '#components/lib/platforms.ts';

export type SnippetDraft = Pick<SnippetSummary, 'name' | 'kind' | 'body' | 'defaultFor'>;

/** A field's message under it (`name`, `body`), in the form's words. */
export type SnippetFieldErrors = Partial<Record<'name' | 'body', string>>;

/** The id of a snippet form's field, so its manager can hand the focus to it. */
export const snippetFieldId = (formId: string, field: 'name' | 'body') => `${formId}-${field}`;

const kinds: { value: SnippetSummary['kind']; label: string }[] = [
  { value: 'signature', label: 'Signature' },
  { value: 'hashtags', label: 'Hashtag group' },
  { value: 'text', label: 'Text' },
];

/** The fields of a snippet, for adding one or editing it. */
export function SnippetForm({
  formId,
  label,
  initial,
  accounts,
  submitLabel,
  onSubmit,
  onCancel,
  error,
  fieldErrors = {},
  busy,
}: {
  /** Prefixes the fields' ids (`snippetFieldId`). */
  formId?: string;
  label: string;
  initial: SnippetDraft;
  accounts: AccountSummary[];
  submitLabel: string;
  onSubmit: (draft: SnippetDraft) => void;
  onCancel?: () => void;
  error?: string;
  fieldErrors?: SnippetFieldErrors;
  busy: boolean;
}) {
  const ownId = useId();
  const id = formId ?? ownId;
  const [draft, setDraft] = useState(initial);
  const set = (patch: Partial<SnippetDraft>) => setDraft((d) => ({ ...d, ...patch }));
  return (
    <form
      className="stack"
      noValidate
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
        if (busy) return;
        onSubmit({ ...draft, defaultFor: draft.kind === 'signature' ? draft.defaultFor : [] });
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          className="input"
          value={draft.name}
          maxLength={200}
          required
          onChange={(e) => set({ name: e.target.value })}
          {...invalidProps(`${id}-name-error`, fieldErrors.name)}
        />
        <FieldError id={`${id}-name-error`}>{fieldErrors.name}</FieldError>
      </div>
      <div className="field">
        <label htmlFor={`${id}-kind`}>Kind</label>
        <select
          id={`${id}-kind`}
          className="input"
          value={draft.kind}
          onChange={(e) => set({ kind: e.target.value as SnippetDraft['kind'] })}
        >
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Text</label>
        <textarea
          id={`${id}-body`}
          className="textarea"
          rows={3}
          value={draft.body}
          maxLength={10_000}
          required
          onChange={(e) => set({ body: e.target.value })}
          {...invalidProps(`${id}-body-error`, fieldErrors.body)}
        />
        <FieldError id={`${id}-body-error`}>{fieldErrors.body}</FieldError>
      </div>
      {draft.kind === 'signature' && accounts.length > 0 && (
        <fieldset className="field">
          <legend className="label">Default signature of</legend>
          <p className="hint">
            The composer adds it when one of these accounts is picked. An account has one default: choosing it
            here takes it from the signature that had it.
          </p>
          <div className="stack" style={{ gap: 6 }}>
            {accounts.map((account) => (
              <label className="checkbox" key={account.id}>
                <input
                  type="checkbox"
                  checked={draft.defaultFor.includes(account.id)}
                  onChange={(e) =>
                    set({
                      defaultFor: e.target.checked
                        ? [...draft.defaultFor, account.id]
                        : draft.defaultFor.filter((a) => a !== account.id),
                    })
                  }
                />
                <span>
                  {accountName(account)} <span className="muted">({platformName(account.platform)})</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" aria-disabled={busy || undefined}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-sm" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
