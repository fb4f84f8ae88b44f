'use client';

import { useId, useState } from 'react';
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

  const save = async () => {
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
          <button type="submit" className="btn btn-sm btn-primary" disabled={busy || !name.trim()}>
            Save template
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setOpen(false)}>
            Cancel
          </button>
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
