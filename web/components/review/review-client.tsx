'use client';

import { useCallback, useEffect, useId, useState } from 'react';
import { FieldError, invalidProps } from '../field-error.tsx';
import { ApiError, api, describeError, fieldProblems } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

interface Version {
  account: { id: string; platform: string; name: string; username?: string };
  message: string;
  media: { url: string; contentType: string; altText?: string }[];
  thread: { message: string }[];
}
interface Review {
  post: {
    status: string;
    scheduledAt: string | null;
    requested: { postingMode: string; scheduledAt?: string } | null;
    versions: Version[];
  };
  comments: { id: string; author: { type: string; name: string }; body: string; createdAt: string }[];
  canDecide: boolean;
  expiresAt: string;
}

/** The page's fields, in its order (the first marked one takes the focus). */
type ReviewField = 'name' | 'comment' | 'decisionComment';
const reviewFields: ReviewField[] = ['name', 'comment', 'decisionComment'];

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The review page's content: previews per account, comments, the decision under a typed name. */
export function ReviewClient({ token }: { token: string }) {
  const base = `/api/v1/review/${encodeURIComponent(token)}`;
  const ids = { name: useId(), comment: useId(), decisionComment: useId() };
  const [review, setReview] = useState<Review>();
  const [gone, setGone] = useState<string>();
  const [name, setName] = useState('');
  const [comment, setComment] = useState('');
  const [decisionComment, setDecisionComment] = useState('');
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<ReviewField, string>>>({});
  const [busy, setBusy] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const statusId = useId();
  const fieldProps = (field: ReviewField, ...hintIds: string[]) =>
    invalidProps(`${ids[field]}-error`, fieldErrors[field], ...hintIds);
  const fieldError = (field: ReviewField) => (
    <FieldError id={`${ids[field]}-error`}>{fieldErrors[field]}</FieldError>
  );
  /** Each error under its field; the first marked field takes the focus. */
  const showFieldErrors = (errors: Partial<Record<ReviewField, string>>, summary?: string) => {
    setFieldErrors(errors);
    setError(summary);
    const first = reviewFields.find((f) => errors[f]);
    if (first) focusAfterRender(ids[first]);
  };

  const load = useCallback(async () => {
    try {
      setReview(await api<Review>('GET', base));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404)
        setGone('This review link is no longer valid: it was revoked or has expired. Ask for a new one.');
      else setGone(describeError(e));
    }
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  /** Sends a comment or a decision; `missing` are the errors the page found itself. */
  const send = async (
    path: string,
    body: Record<string, unknown>,
    done: string,
    missing: Partial<Record<ReviewField, string>> = {},
  ) => {
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    const errors = { ...(name.trim() ? {} : { name: 'Type your name.' }), ...missing };
    if (Object.keys(errors).length > 0) return showFieldErrors(errors);
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      await api('POST', `${base}/${path}`, { name, ...body });
      setComment('');
      setDecisionComment('');
      await load();
      // Said once the page shows it and takes presses again (the buttons ignore them while busy:
      // said before the reload, a press right after "Comment added." did nothing).
      setStatus(done);
      // A decision ends the review and its buttons go: the outcome takes the focus they had.
      if (path === 'decision') focusAfterRender(statusId);
    } catch (e) {
      const problems = fieldProblems(
        e,
        path === 'decision'
          ? {
              name: 'Type your name (at most 100 characters).',
              comment: 'Keep the comment under 5,000 characters.',
            }
          : {
              name: 'Type your name (at most 100 characters).',
              body: 'Write a comment of at most 5,000 characters.',
            },
      );
      const { name: nameError, body: bodyError, comment: decisionError } = problems.fields;
      showFieldErrors(
        {
          ...(nameError ? { name: nameError } : {}),
          ...(bodyError ? { comment: bodyError } : {}),
          ...(decisionError ? { decisionComment: decisionError } : {}),
        },
        problems.summary,
      );
    } finally {
      setBusy(false);
    }
  };

  if (gone)
    return (
      <>
        <h1>Review a post</h1>
        <p className="alert alert-error" role="alert">
          {gone}
        </p>
      </>
    );
  if (!review)
    return (
      <p role="status" className="muted">
        Loading the post…
      </p>
    );
  const tz = zone();
  const requested = review.post.requested;
  return (
    <div className="stack">
      <header>
        <h1>Review a post</h1>
        <p className="muted small">
          {review.post.status === 'pending_approval'
            ? `Waiting for approval${requested?.postingMode === 'schedule' && requested.scheduledAt ? `: to go out ${formatDateTime(requested.scheduledAt, tz)}` : requested?.postingMode === 'now' ? ': to go out once approved' : ''}.`
            : `Status: ${review.post.status.replaceAll('_', ' ')}.`}{' '}
          This link works until {formatDateTime(review.expiresAt, tz)}.
        </p>
      </header>
      <section aria-labelledby="versions-title" className="stack">
        <h2 id="versions-title">As each account will show it</h2>
        {review.post.versions.map((v) => (
          <article
            key={v.account.id}
            className="card stack"
            aria-label={`${v.account.name} (${v.account.platform})`}
          >
            <h3 className="small">
              {v.account.name} <span className="muted">· {v.account.platform}</span>
            </h3>
            <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{v.message}</p>
            {v.media.map((m) =>
              m.contentType.startsWith('image/') ? (
                // biome-ignore lint/performance/noImgElement: stored media at its own URL
                <img
                  key={m.url}
                  src={m.url}
                  alt={m.altText ?? ''}
                  style={{ maxWidth: '100%', height: 'auto' }}
                />
              ) : (
                <p key={m.url} className="muted small">
                  A {m.contentType.split('/')[0]} file
                </p>
              ),
            )}
            {v.thread.length > 0 && (
              <ol className="stack small" aria-label="Replies in the thread">
                {v.thread.map((p, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: thread parts have no id, order is fixed
                  <li key={i} style={{ whiteSpace: 'pre-wrap' }}>
                    {p.message}
                  </li>
                ))}
              </ol>
            )}
          </article>
        ))}
      </section>
      <section aria-labelledby="comments-title" className="stack">
        <h2 id="comments-title">Comments</h2>
        {review.comments.length === 0 ? (
          <p className="muted small">No comments yet.</p>
        ) : (
          <ul className="list">
            {review.comments.map((c) => (
              <li key={c.id} className="stack" style={{ gap: 2 }}>
                <p className="small">
                  <strong>{c.author.name}</strong>{' '}
                  <span className="muted">· {formatDateTime(c.createdAt, tz)}</span>
                </p>
                <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{c.body}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="field">
        <label htmlFor={ids.name}>Your name</label>
        <input
          id={ids.name}
          className="input"
          autoComplete="name"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          {...fieldProps('name')}
        />
        {fieldError('name')}
      </div>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void send(
            'comments',
            { body: comment },
            'Comment added.',
            comment.trim() ? {} : { comment: 'Write a comment.' },
          );
        }}
      >
        <div className="field">
          <label htmlFor={ids.comment}>Comment</label>
          <textarea
            id={ids.comment}
            className="input"
            rows={3}
            maxLength={5000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            {...fieldProps('comment')}
          />
          {fieldError('comment')}
        </div>
        <button type="submit" className="btn" aria-disabled={busy || undefined}>
          Add comment
        </button>
      </form>
      {review.canDecide && (
        <section aria-labelledby="decision-title" className="stack">
          <h2 id="decision-title">Your decision</h2>
          <div className="field">
            <label htmlFor={ids.decisionComment}>What should change? (needed to request changes)</label>
            <textarea
              id={ids.decisionComment}
              className="input"
              rows={3}
              maxLength={5000}
              value={decisionComment}
              onChange={(e) => setDecisionComment(e.target.value)}
              {...fieldProps('decisionComment')}
            />
            {fieldError('decisionComment')}
          </div>
          <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
            <button
              type="button"
              className="btn btn-primary"
              aria-disabled={busy || undefined}
              onClick={() =>
                send(
                  'decision',
                  { decision: 'approve', ...(decisionComment.trim() ? { comment: decisionComment } : {}) },
                  'Approved. Thank you!',
                )
              }
            >
              Approve
            </button>
            <button
              type="button"
              className="btn"
              aria-disabled={busy || undefined}
              onClick={() =>
                void send(
                  'decision',
                  { decision: 'reject', comment: decisionComment },
                  'Changes requested.',
                  decisionComment.trim()
                    ? {}
                    : { decisionComment: 'Say what should change, then request changes.' },
                )
              }
            >
              Request changes
            </button>
          </div>
        </section>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <p
        id={statusId}
        tabIndex={-1}
        role="status"
        aria-live="polite"
        className={status ? 'alert alert-ok' : 'sr-only'}
      >
        {status}
      </p>
    </div>
  );
}
