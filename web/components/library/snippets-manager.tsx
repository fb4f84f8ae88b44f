'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { SnippetSummary } from '#components/compose/signatures.ts';
import { ConfirmButton } from '#components/confirm-button.tsx';
import { api, describeError } from '#components/lib/api.ts';
import { type AccountSummary, accountName } from '#components/lib/platforms.ts';
import { type SnippetDraft, SnippetForm } from './snippet-form.tsx';

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
  const [editing, setEditing] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [formKey, setFormKey] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const names = new Map(accounts.map((a) => [a.id, accountName(a)]));

  const save = async (draft: SnippetDraft, id?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await api(id ? 'PATCH' : 'POST', id ? `/api/v1/snippets/${id}` : '/api/v1/snippets', draft);
      setAnnouncement(id ? `Snippet “${draft.name}” saved.` : `Snippet “${draft.name}” added.`);
      setEditing(undefined);
      if (!id) setFormKey((k) => k + 1);
      router.refresh();
    } catch (e) {
      setError(describeError(e));
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
                  initial={s}
                  accounts={accounts}
                  submitLabel="Save snippet"
                  busy={busy}
                  error={error}
                  onSubmit={(draft) => void save(draft, s.id)}
                  onCancel={() => setEditing(undefined)}
                />
              ) : (
                <>
                  <div className="row">
                    <h3 className="section-title" style={{ marginRight: 'auto' }}>
                      {s.name} <span className="badge">{kindNames[s.kind]}</span>
                    </h3>
                    {canManage && (
                      <>
                        <button type="button" className="btn btn-sm" onClick={() => setEditing(s.id)}>
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
        <section className="stack library-add" aria-labelledby="new-snippet-title">
          <h3 id="new-snippet-title" className="section-title">
            Add a snippet
          </h3>
          <SnippetForm
            key={formKey}
            initial={blank}
            accounts={accounts}
            submitLabel="Add snippet"
            busy={busy}
            error={error}
            onSubmit={(draft) => void save(draft)}
          />
        </section>
      )}
    </div>
  );
}
