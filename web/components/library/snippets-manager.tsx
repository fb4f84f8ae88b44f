'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import type { SnippetSummary } from '#components/compose/signatures.ts';
import { ConfirmButton } from '#components/confirm-button.tsx';
import { api, fieldProblems } from '#components/lib/api.ts';
import { type AccountSummary, accountName } from '#components/lib/platforms.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import { type SnippetDraft, type SnippetFieldErrors, SnippetForm, snippetFieldId } from './snippet-form.tsx';

const kindNames = { signature: 'Signature', hashtags: 'Hashtag group', text: 'Text' } as const;
const blank: SnippetDraft = { name: '', kind: 'signature', body: '', defaultFor: [] };

/** The workspace's snippets: list, add, edit, delete (editing for owners and admins). */
export function SnippetsManager({
  snippets,
  accounts,
  canManage,
}: {
  snippets: SnippetSummary[];
  accounts: AccountSummary[];
  canManage: boolean;
}) {
  const router = useRouter();
  const baseId = useId();
  const [editing, setEditing] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [fieldErrors, setFieldErrors] = useState<SnippetFieldErrors>({});
  const [formKey, setFormKey] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterRender = useFocusAfterRender();
  const names = new Map(accounts.map((a) => [a.id, accountName(a)]));
  const formIdOf = (id?: string) => `${baseId}-${id ?? 'new'}`;
  const editId = (id: string) => `${baseId}-${id}-edit`;
  const addTitleId = `${baseId}-add-title`;

  const edit = (id: string | undefined) => {
    const leaving = editing;
    setEditing(id);
    setError(undefined);
    setFieldErrors({});
    // The form replaces the snippet's buttons: its name takes the focus; leaving it returns to Edit.
    focusAfterRender(id ? snippetFieldId(formIdOf(id), 'name') : editId(leaving ?? ''));
  };

  const save = async (draft: SnippetDraft, id?: string) => {
    const formId = formIdOf(id);
    const missing: SnippetFieldErrors = {
      ...(draft.name.trim() ? {} : { name: 'Give the snippet a name.' }),
      ...(draft.body ? {} : { body: 'Write the text the snippet inserts.' }),
    };
    if (missing.name || missing.body) {
      setFieldErrors(missing);
      setError(undefined);
      focusAfterRender(snippetFieldId(formId, missing.name ? 'name' : 'body'));
      return;
    }
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      await api(id ? 'PATCH' : 'POST', id ? `/api/v1/snippets/${id}` : '/api/v1/snippets', draft);
      setAnnouncement(id ? `Snippet “${draft.name}” saved.` : `Snippet “${draft.name}” added.`);
      setEditing(undefined);
      if (id) focusAfterRender(editId(id));
      else {
        // A fresh form for the next one: its name field keeps the focus the old form's button had.
        setFormKey((k) => k + 1);
        focusAfterRender(snippetFieldId(formIdOf(), 'name'));
      }
      router.refresh();
    } catch (e) {
      // The server's issues under their fields in the form's words; one plain summary.
      const problems = fieldProblems(e, {
        name: 'Give the snippet a name of at most 200 characters.',
        body: 'The text is too long: keep it under 10,000 characters.',
      });
      setFieldErrors(problems.fields);
      setError(problems.summary);
      const first = (['name', 'body'] as const).find((f) => problems.fields[f]);
      if (first) focusAfterRender(snippetFieldId(formId, first));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {snippets.length === 0 ? (
        <p className="muted">No snippets yet.</p>
      ) : (
        <ul className="list library-list" aria-label="Snippets">
          {snippets.map((s) => (
            <li key={s.id} className="stack list-item" style={{ gap: 6 }}>
              {editing === s.id ? (
                <SnippetForm
                  formId={formIdOf(s.id)}
                  label={`Edit snippet ${s.name}`}
                  initial={s}
                  accounts={accounts}
                  submitLabel="Save snippet"
                  busy={busy}
                  error={error}
                  fieldErrors={fieldErrors}
                  onSubmit={(draft) => void save(draft, s.id)}
                  onCancel={() => edit(undefined)}
                />
              ) : (
                <>
                  <div className="row">
                    <h3 className="section-title" style={{ marginRight: 'auto' }}>
                      {s.name} <span className="badge">{kindNames[s.kind]}</span>
                    </h3>
                    {canManage && (
                      <>
                        <button
                          id={editId(s.id)}
                          type="button"
                          className="btn btn-sm"
                          onClick={() => edit(s.id)}
                        >
                          Edit<span className="sr-only"> snippet {s.name}</span>
                        </button>
                        <ConfirmButton
                          label={
                            <>
                              Delete<span className="sr-only"> snippet {s.name}</span>
                            </>
                          }
                          title={`Delete the snippet “${s.name}”?`}
                          body="Posts that already contain its text keep it."
                          confirmLabel="Delete snippet"
                          onConfirm={async () => {
                            await api('DELETE', `/api/v1/snippets/${s.id}`);
                            setAnnouncement(`Snippet “${s.name}” deleted.`);
                            // Its buttons go with it: the focus moves to the next snippet's Edit, else
                            // to the previous one's, else to the add form's heading.
                            const at = snippets.findIndex((x) => x.id === s.id);
                            const neighbour = snippets[at + 1] ?? snippets[at - 1];
                            focusAfterRender(neighbour ? editId(neighbour.id) : addTitleId);
                            router.refresh();
                          }}
                        />
                      </>
                    )}
                  </div>
                  <p className="snippet-body small">{s.body}</p>
                  {s.defaultFor.length > 0 && (
                    <p className="muted small">
                      Default for {s.defaultFor.map((id) => names.get(id) ?? id).join(', ')}
                    </p>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && !editing && (
        <section className="stack library-add" aria-labelledby={addTitleId}>
          <h3 id={addTitleId} className="section-title" tabIndex={-1}>
            Add a snippet
          </h3>
          <SnippetForm
            key={formKey}
            formId={formIdOf()}
            label="Add a snippet"
            initial={blank}
            accounts={accounts}
            submitLabel="Add snippet"
            busy={busy}
            error={error}
            fieldErrors={fieldErrors}
            onSubmit={(draft) => void save(draft)}
          />
        </section>
      )}
    </div>
  );
}
