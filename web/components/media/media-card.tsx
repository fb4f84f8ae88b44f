'use client';

import Link from 'next/link';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { FieldError, invalidProps } from '../field-error.tsx';
import { Icon } from '../icons.tsx';
import { api, fieldProblems } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import type { LibraryItem } from './types.ts';

const maxAltText = 1500;

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A video's length as a player shows it: 0:07, 12:30, 1:02:03. */
function durationText(ms: number): string {
  const total = Math.round(ms / 1000);
  const [h, m, sec] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

const kindOf = (type: string) =>
  type.startsWith('image/') ? 'image' : type.startsWith('video/') ? 'video' : 'file';

/** The id of a file's name in its card, which takes the focus when "Show more" brought the file. */
export const mediaNameId = (mediaId: string) => `media-name-${mediaId}`;

/** One library file: its thumbnail or poster (an icon where there is none), what is known of it, and its actions. */
export function MediaCard({
  item,
  canEdit,
  canPost,
  onSaved,
  deleteButton,
}: {
  item: LibraryItem;
  canEdit: boolean;
  canPost: boolean;
  onSaved: (item: LibraryItem) => void;
  deleteButton: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [returnFocus, setReturnFocus] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Closing the form puts focus back on its Edit button (rendered again once the form is gone).
  useEffect(() => {
    if (editing || !returnFocus) return;
    editButton.current?.focus();
    setReturnFocus(false);
  }, [editing, returnFocus]);
  const kind = kindOf(item.contentType);
  const used = item.usedBy.length;
  const titleId = mediaNameId(item.id);
  return (
    <li className="media-tile" aria-labelledby={titleId} data-media-id={item.id}>
      <div className="media-thumb">
        {item.thumbnailUrl ? (
          // biome-ignore lint/performance/noImgElement: thumbnails come from the media storage, not Next's optimizer
          <img src={item.thumbnailUrl} alt={item.altText ?? ''} loading="lazy" width={160} height={160} />
        ) : (
          <Icon name={kind === 'image' ? 'image' : kind === 'video' ? 'video' : 'file'} size={40} />
        )}
      </div>
      <div className="media-info">
        <h2 className="media-name" id={titleId} tabIndex={-1}>
          {item.filename}
        </h2>
        <p className="hint">
          {kind === 'file' ? 'Document' : kind === 'image' ? 'Image' : 'Video'} · {sizeText(item.size)}
          {item.width && item.height ? ` · ${item.width}×${item.height}` : ''}
          {item.durationMs ? ` · ${durationText(item.durationMs)}` : ''}
          {used ? ` · used by ${used} ${used === 1 ? 'post' : 'posts'}` : ''}
        </p>
        {item.altText ? (
          <p className="media-alt">
            <span className="sr-only">Alt text: </span>
            {item.altText}
          </p>
        ) : (
          <p className="hint">No alt text</p>
        )}
        {item.tags.length > 0 && (
          <ul className="media-tags" aria-label="Tags">
            {item.tags.map((tag) => (
              <li key={tag} className="media-tag">
                {tag}
              </li>
            ))}
          </ul>
        )}
      </div>
      {editing ? (
        <EditForm
          item={item}
          onDone={(saved) => {
            if (saved) onSaved(saved);
            setEditing(false);
            setReturnFocus(true);
          }}
        />
      ) : (
        <div className="media-actions">
          {canPost && (
            <Link className="btn btn-sm" href={`/compose?media=${item.id}`}>
              Use in a new post<span className="sr-only"> ({item.filename})</span>
            </Link>
          )}
          {canEdit && (
            <button ref={editButton} type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
              Edit<span className="sr-only"> {item.filename}</span>
            </button>
          )}
          {deleteButton}
        </div>
      )}
    </li>
  );
}

/** The edit form's fields a refusal can name, in the form's order (their ids end with these). */
type EditField = 'filename' | 'altText' | 'tags';
const editFields: EditField[] = ['filename', 'altText', 'tags'];

function EditForm({ item, onDone }: { item: LibraryItem; onDone: (saved?: LibraryItem) => void }) {
  const id = useId();
  const [filename, setFilename] = useState(item.filename);
  const [altText, setAltText] = useState(item.altText ?? '');
  const [tags, setTags] = useState(item.tags.join(', '));
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<EditField, string>>>({});
  const [busy, setBusy] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const altField = useRef<HTMLTextAreaElement>(null);
  // Opening the form moves focus into it, to the field people come to edit most.
  useEffect(() => altField.current?.focus(), []);

  /** Each error under its field; the first marked field takes the focus. */
  const showFieldErrors = (errors: Partial<Record<EditField, string>>, summary?: string) => {
    setFieldErrors(errors);
    setError(summary);
    const first = editFields.find((f) => errors[f]);
    if (first) focusAfterRender(`${id}-${first}`);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    if (!filename.trim()) return showFieldErrors({ filename: 'Give the file a name.' });
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      const saved = await api<LibraryItem>('PATCH', `/api/v1/media/${item.id}`, {
        filename: filename.trim(),
        altText: altText.trim() ? altText : null,
        tags: tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      });
      onDone(saved);
    } catch (e) {
      const problems = fieldProblems(e, {
        filename: 'Give the file a name of at most 200 characters.',
        altText: `Keep the alt text under ${maxAltText} characters.`,
        tags: (issue) => `Check the tags: ${issue.message}`,
      });
      showFieldErrors(problems.fields, problems.summary);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="media-edit"
      onSubmit={save}
      noValidate
      aria-label={`Edit ${item.filename}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onDone();
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-filename`}>File name</label>
        <input
          id={`${id}-filename`}
          className="input"
          value={filename}
          maxLength={200}
          required
          onChange={(e) => setFilename(e.target.value)}
          {...invalidProps(`${id}-filename-error`, fieldErrors.filename)}
        />
        <FieldError id={`${id}-filename-error`}>{fieldErrors.filename}</FieldError>
      </div>
      <div className="field">
        <label htmlFor={`${id}-altText`}>Alt text</label>
        <textarea
          ref={altField}
          id={`${id}-altText`}
          className="textarea"
          rows={3}
          value={altText}
          maxLength={maxAltText}
          {...invalidProps(`${id}-alt-error`, fieldErrors.altText, `${id}-alt-hint`)}
          onChange={(e) => setAltText(e.target.value)}
        />
        <span className="hint" id={`${id}-alt-hint`}>
          Used wherever this file is posted without its own alt text.
        </span>
        <FieldError id={`${id}-alt-error`}>{fieldErrors.altText}</FieldError>
      </div>
      <div className="field">
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          className="input"
          value={tags}
          {...invalidProps(`${id}-tags-error`, fieldErrors.tags, `${id}-tags-hint`)}
          onChange={(e) => setTags(e.target.value)}
        />
        <span className="hint" id={`${id}-tags-hint`}>
          Separate tags with commas.
        </span>
        <FieldError id={`${id}-tags-error`}>{fieldErrors.tags}</FieldError>
      </div>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="media-actions">
        <button type="submit" className="btn btn-sm btn-primary" aria-disabled={busy || undefined}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => busy || onDone()}
          aria-disabled={busy || undefined}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
