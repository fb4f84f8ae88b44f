'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useId, useState } from 'react';
import { ActionButton } from '../action-button.tsx';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

export interface CommentItem {
  id: string;
  author: { type: 'member' | 'reviewer'; id?: string; name: string };
  body: string;
  createdAt: string;
}

const maxLength = 5000;

/**
 * The post page's comments (docs/workspaces.md#comments): oldest first, then a form for those the
 * role table lets comment (`canComment`), through `POST /api/v1/posts/{id}/comments`. A plain
 * form: a labelled text area and a submit button; errors are announced.
 */
export function PostComments({
  postId,
  comments,
  canComment,
  timezone,
  locale,
}: {
  postId: string;
  comments: CommentItem[];
  canComment: boolean;
  timezone: string;
  locale: string;
}) {
  const router = useRouter();
  const fieldId = useId();
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const empty = body.trim() === '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || empty) return;
    setBusy(true);
    setError(undefined);
    try {
      await api('POST', `/api/v1/posts/${postId}/comments`, { body });
      setBody('');
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="comments-title" data-testid="post-comments">
      <div className="card-head">
        <h2 id="comments-title">Comments</h2>
      </div>
      <div className="card-body stack">
        {comments.length === 0 ? (
          <p className="muted small">No comments yet.</p>
        ) : (
          <ol className="comments">
            {comments.map((c) => (
              <li key={c.id} className="comment small">
                <strong>{c.author.name}</strong>
                {c.author.type === 'reviewer' && <span className="muted"> (reviewer)</span>}{' '}
                <time className="muted" dateTime={c.createdAt}>
                  {formatDateTime(c.createdAt, timezone, locale)}
                </time>
                <p className="comment-body">{c.body}</p>
              </li>
            ))}
          </ol>
        )}
        {canComment && (
          <form onSubmit={submit} className="stack" style={{ gap: 8 }}>
            <div className="field">
              <label htmlFor={fieldId}>Add a comment</label>
              <textarea
                id={fieldId}
                className="textarea"
                rows={3}
                maxLength={maxLength}
                required
                value={body}
                onChange={(e) => setBody(e.target.value)}
                {...invalidProps(`${fieldId}-error`, error)}
              />
            </div>
            <FieldError id={`${fieldId}-error`}>{error}</FieldError>
            <div className="row">
              {/* Blocked, not disabled: it stays in the tab order and says why it does nothing yet. */}
              <ActionButton
                type="submit"
                className="btn btn-primary btn-sm"
                blocked={busy || empty}
                reasonId={empty && !busy ? `${fieldId}-empty` : undefined}
                aria-busy={busy || undefined}
              >
                {busy ? 'Posting…' : 'Post comment'}
              </ActionButton>
              {empty && (
                <span id={`${fieldId}-empty`} className="muted small">
                  Write a comment first.
                </span>
              )}
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
