'use client';

import { type FormEvent, useRef, useState } from 'react';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { api } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { MediaCard, mediaNameId } from './media-card.tsx';
import type { LibraryItem, LibraryPage } from './types.ts';

export type { LibraryItem, LibraryPage };

const kindLabels = { '': 'All kinds', image: 'Images', video: 'Videos', document: 'Documents' } as const;
type KindFilter = keyof typeof kindLabels;

/** The workspace's media library: search, filter, edit alt text and tags, reuse, delete. */
export function MediaLibrary({
  initial,
  canEdit,
  canPost,
}: {
  initial: LibraryPage;
  canEdit: boolean;
  canPost: boolean;
}) {
  const [items, setItems] = useState(initial.media);
  const [nextCursor, setNextCursor] = useState(initial.nextCursor);
  const [q, setQ] = useState('');
  const [kind, setKind] = useState<KindFilter>('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const applied = useRef({ q: '', kind: '' as KindFilter });
  const focusAfterRender = useFocusAfterRender();

  const load = async (filters: { q: string; kind: KindFilter }, cursor?: string) => {
    const params = new URLSearchParams({ limit: '48' });
    if (filters.q.trim()) params.set('q', filters.q.trim());
    if (filters.kind) params.set('kind', filters.kind);
    if (cursor) params.set('cursor', cursor);
    setBusy(true);
    setError(undefined);
    try {
      const page = await api<LibraryPage>('GET', `/api/v1/media?${params}`);
      const all = cursor ? [...items, ...page.media] : page.media;
      setItems(all);
      setNextCursor(page.nextCursor);
      // "Show more": the first file it brought takes the focus (its name), so reading goes on
      // there, whether the button stays or went with the last page. A page with nothing new keeps
      // the focus on the button, or, when the button went, gives it to the last file.
      const next = cursor ? (page.media[0] ?? (page.nextCursor ? undefined : all.at(-1))) : undefined;
      if (next) focusAfterRender(() => document.getElementById(mediaNameId(next.id)));
      applied.current = filters;
      setStatus(
        all.length === 0
          ? 'No media match.'
          : `${all.length} ${all.length === 1 ? 'file' : 'files'} shown${page.nextCursor ? ', more available' : ''}.`,
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The library could not be loaded.');
    } finally {
      setBusy(false);
    }
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    void load({ q, kind });
  };

  const replace = (item: LibraryItem) => setItems((list) => list.map((m) => (m.id === item.id ? item : m)));
  const remove = async (item: LibraryItem) => {
    await api('DELETE', `/api/v1/media/${item.id}`);
    // Its card and Delete button go: the next card's first action takes the focus (the one
    // before when it was the last, the search field when none is left), not <body>.
    const at = items.findIndex((m) => m.id === item.id);
    const neighbour = items[at + 1] ?? items[at - 1];
    setItems((list) => list.filter((m) => m.id !== item.id));
    setStatus(`${item.filename} deleted.`);
    focusAfterRender(
      () =>
        (neighbour &&
          document.querySelector<HTMLElement>(
            `[data-media-id="${neighbour.id}"] :is(a[href], button, input, textarea, select)`,
          )) ||
        document.getElementById('media-q'),
    );
  };

  const filtered = applied.current.q !== '' || applied.current.kind !== '';
  return (
    <section className="card" aria-label="Media library">
      <div className="card-body media-library">
        <form className="media-filters" aria-label="Search media" onSubmit={search}>
          <div className="field">
            <label htmlFor="media-q">Search by name, alt text or tag</label>
            <input
              id="media-q"
              className="input"
              type="search"
              value={q}
              maxLength={200}
              onChange={(e) => setQ(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="media-kind">Kind</label>
            <select
              id="media-kind"
              className="select"
              value={kind}
              onChange={(e) => {
                const value = e.target.value as KindFilter;
                setKind(value);
                void load({ q, kind: value });
              }}
            >
              {Object.entries(kindLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn" aria-disabled={busy || undefined}>
            Search
          </button>
        </form>
        <p className="sr-only" role="status" aria-live="polite">
          {status}
        </p>
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
        {items.length === 0 ? (
          <EmptyState icon="image" title={filtered ? 'No media match' : 'No media yet'}>
            {filtered
              ? 'Try another search or kind.'
              : 'Files you upload in the composer, through the API or by import appear here.'}
          </EmptyState>
        ) : (
          <ul className="media-grid" aria-label="Media files">
            {items.map((item) => (
              <MediaCard
                key={item.id}
                item={item}
                canEdit={canEdit}
                canPost={canPost}
                onSaved={replace}
                deleteButton={
                  canEdit ? (
                    <ConfirmButton
                      label={
                        <>
                          Delete<span className="sr-only"> {item.filename}</span>
                        </>
                      }
                      title={`Delete ${item.filename}?`}
                      body="The file is removed from storage. Posts already published keep their copy on each network."
                      confirmLabel="Delete"
                      onConfirm={() => remove(item)}
                    />
                  ) : null
                }
              />
            ))}
          </ul>
        )}
        {nextCursor && (
          <button
            type="button"
            className="btn"
            aria-disabled={busy || undefined}
            onClick={() => busy || void load(applied.current, nextCursor)}
          >
            Show more
          </button>
        )}
      </div>
    </section>
  );
}
