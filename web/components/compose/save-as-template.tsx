'use client';

import { useId, useState } from 'react';
import { ActionButton } from '#components/action-button.tsx';
import { api, describeError } from '#components/lib/api.ts';

/** What a template holds: a post's content fields (docs/library.md#templates). */
export interface TemplateContent {
  message: string;
  accountIds: string[];
  media?: unknown[];
  accountOptions?: Record<string, Record<string, unknown>>;
  overrides?: Record<string, unknown>;
  thread?: unknown[];
}

/**
 * "Save as template": asks for a name, then stores the content `content()` gives at that moment
 * (from the composer or a post page). Owners and admins only, like the API.
 */
export function SaveAsTemplate({
  content,
  defaultName = '',
}: {
  /** The content, or (in the composer) a function giving it as it is when saved. */
  content: TemplateContent | (() => TemplateContent);
  defaultName?: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(defaultName);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();

  const unnamed = !name.trim();
  const save = async () => {
    if (busy || unnamed) return;
    setBusy(true);
    try {
      await api('POST', '/api/v1/templates', {
        name,
        ...(typeof content === 'function' ? content() : content),
      });
      setOutcome({ ok: true, text: `Saved as template “${name.trim()}”.` });
      setOpen(false);
    } catch (e) {
      setOutcome({ ok: false, text: describeError(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack save-as-template">
      {open ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label htmlFor={`${id}-name`} className="small">
            Template name
          </label>
          <input
            id={`${id}-name`}
            className="input"
            style={{ flex: '1 1 12rem', width: 'auto' }}
            value={name}
            required
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked for it
            autoFocus
          />
          {/* Blocked, not disabled: it stays in the tab order and says why it does nothing yet. */}
          <ActionButton
            type="submit"
            className="btn btn-sm btn-primary"
            blocked={busy || unnamed}
            reasonId={unnamed && !busy ? `${id}-unnamed` : undefined}
            aria-busy={busy || undefined}
          >
            Save template
          </ActionButton>
          <button type="button" className="btn btn-sm" onClick={() => setOpen(false)}>
            Cancel
          </button>
          {unnamed && (
            <span id={`${id}-unnamed`} className="muted small">
              Give the template a name.
            </span>
          )}
        </form>
      ) : (
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => setOpen(true)}
          style={{ alignSelf: 'flex-start' }}
        >
          Save as template
        </button>
      )}
      <p role="status" aria-live="polite" className={outcome?.ok === false ? 'field-error' : 'muted small'}>
        {outcome?.text}
      </p>
    </div>
  );
}
