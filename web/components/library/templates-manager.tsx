'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { ConfirmButton } from '#components/confirm-button.tsx';
import { FieldError, invalidProps } from '#components/field-error.tsx';
import { api, fieldProblems } from '#components/lib/api.ts';
import { type AccountSummary, accountName } from '#components/lib/platforms.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';

export interface TemplateSummary {
  id: string;
  name: string;
  message: string;
  accountIds: string[];
  media: unknown[];
  thread: unknown[];
}

/**
 * The workspace's templates: start a post from one, rename or rewrite its message, delete it.
 * A template's full content (media, versions, thread) is saved from the composer ("Save as
 * template"); here a new one starts with a name and a message.
 */
export function TemplatesManager({
  templates,
  accounts,
  canManage,
}: {
  templates: TemplateSummary[];
  accounts: AccountSummary[];
  canManage: boolean;
}) {
  const router = useRouter();
  const formId = useId();
  const [editing, setEditing] = useState<string | undefined>();
  const [draft, setDraft] = useState({ name: '', message: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [fieldErrors, setFieldErrors] = useState<{ name?: string; message?: string }>({});
  const [announcement, setAnnouncement] = useState('');
  const focusAfterRender = useFocusAfterRender();
  const names = new Map(accounts.map((a) => [a.id, accountName(a)]));
  const fieldId = (id: string | undefined, field: 'name' | 'message') => `${formId}-${id ?? 'new'}-${field}`;
  const editId = (id: string) => `${formId}-${id}-edit`;

  const startEditing = (t: TemplateSummary) => {
    setDraft({ name: t.name, message: t.message });
    setError(undefined);
    setFieldErrors({});
    setEditing(t.id);
    // The form replaces the template's buttons: its name field takes the focus.
    focusAfterRender(fieldId(t.id, 'name'));
  };
  const stopEditing = (id: string) => {
    setEditing(undefined);
    setError(undefined);
    setFieldErrors({});
    setDraft({ name: '', message: '' });
    focusAfterRender(editId(id));
  };

  const save = async (id?: string) => {
    if (busy) return;
    if (!draft.name.trim()) {
      setFieldErrors({ name: 'Give the template a name.' });
      setError(undefined);
      focusAfterRender(fieldId(id, 'name'));
      return;
    }
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      await api(id ? 'PATCH' : 'POST', id ? `/api/v1/templates/${id}` : '/api/v1/templates', draft);
      setAnnouncement(`Template “${draft.name.trim()}” ${id ? 'saved' : 'added'}.`);
      if (id) stopEditing(id);
      else setDraft({ name: '', message: '' });
      router.refresh();
    } catch (e) {
      // The server's issues in the form's own words, under their fields; one plain summary.
      const problems = fieldProblems(e, {
        name: 'Give the template a name of at most 200 characters.',
        message: 'The message is too long: keep it under 100,000 characters.',
      });
      setFieldErrors(problems.fields);
      setError(problems.summary);
      const first = (['name', 'message'] as const).find((f) => problems.fields[f]);
      if (first) focusAfterRender(fieldId(id, first));
    } finally {
      setBusy(false);
    }
  };

  const form = (id?: string) => (
    <form
      className="stack"
      noValidate
      aria-label={id ? 'Edit template' : 'Add a template'}
      onSubmit={(e) => {
        e.preventDefault();
        void save(id);
      }}
    >
      <div className="field">
        <label htmlFor={fieldId(id, 'name')}>Name</label>
        <input
          id={fieldId(id, 'name')}
          className="input"
          value={draft.name}
          maxLength={200}
          required
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          {...invalidProps(`${fieldId(id, 'name')}-error`, fieldErrors.name)}
        />
        <FieldError id={`${fieldId(id, 'name')}-error`}>{fieldErrors.name}</FieldError>
      </div>
      <div className="field">
        <label htmlFor={fieldId(id, 'message')}>Message</label>
        <textarea
          id={fieldId(id, 'message')}
          className="textarea"
          rows={4}
          value={draft.message}
          onChange={(e) => setDraft({ ...draft, message: e.target.value })}
          {...invalidProps(`${fieldId(id, 'message')}-error`, fieldErrors.message)}
        />
        <FieldError id={`${fieldId(id, 'message')}-error`}>{fieldErrors.message}</FieldError>
      </div>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        {/* aria-disabled, not disabled: the pressed button keeps the focus while it saves. */}
        <button type="submit" className="btn btn-primary btn-sm" aria-disabled={busy}>
          {id ? 'Save template' : 'Add template'}
        </button>
        {id && (
          <button type="button" className="btn btn-sm" onClick={() => stopEditing(id)}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );

  return (
    <div className="stack">
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {templates.length === 0 ? (
        <p className="muted">
          No templates yet. Write a post in the <Link href="/compose">composer</Link> and choose “Save as
          template”.
        </p>
      ) : (
        <ul className="list library-list" aria-label="Templates">
          {templates.map((t) => (
            <li key={t.id} className="stack" style={{ gap: 6 }}>
              {editing === t.id ? (
                form(t.id)
              ) : (
                <>
                  <div className="row">
                    <h3 className="section-title" style={{ marginRight: 'auto' }}>
                      {t.name}
                    </h3>
                    <Link href={`/compose?template=${t.id}`} className="btn btn-sm">
                      New post<span className="sr-only"> from template {t.name}</span>
                    </Link>
                    {canManage && (
                      <>
                        <button
                          type="button"
                          id={editId(t.id)}
                          className="btn btn-sm"
                          onClick={() => startEditing(t)}
                        >
                          Edit<span className="sr-only"> template {t.name}</span>
                        </button>
                        <ConfirmButton
                          label={
                            <>
                              Delete<span className="sr-only"> template {t.name}</span>
                            </>
                          }
                          title={`Delete the template “${t.name}”?`}
                          body="Posts made from it keep their content."
                          confirmLabel="Delete template"
                          onConfirm={async () => {
                            await api('DELETE', `/api/v1/templates/${t.id}`);
                            setAnnouncement(`Template “${t.name}” deleted.`);
                            // Its row goes with the refresh: the next template's Edit button (the
                            // one before when it was the last, else the new template's name) takes the focus.
                            const at = templates.findIndex((x) => x.id === t.id);
                            const neighbour = templates[at + 1] ?? templates[at - 1];
                            focusAfterRender(() =>
                              document.getElementById(editId(t.id))
                                ? null
                                : document.getElementById(
                                    neighbour ? editId(neighbour.id) : fieldId(undefined, 'name'),
                                  ),
                            );
                            router.refresh();
                          }}
                        />
                      </>
                    )}
                  </div>
                  <p className="snippet-body small">
                    {t.message || <span className="muted">(no message)</span>}
                  </p>
                  <p className="muted small">
                    {t.accountIds.length
                      ? `To ${t.accountIds.map((id) => names.get(id) ?? 'a disconnected account').join(', ')}`
                      : 'No accounts chosen'}
                    {t.media.length > 0 && ` · ${t.media.length} media`}
                    {t.thread.length > 0 && ` · thread of ${t.thread.length + 1}`}
                  </p>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && !editing && (
        <section className="stack library-add" aria-labelledby={`${formId}-new-title`}>
          <h3 id={`${formId}-new-title`} className="section-title">
            Add a template
          </h3>
          {form()}
        </section>
      )}
    </div>
  );
}
