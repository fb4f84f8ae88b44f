'use client';

import { useCallback, useEffect, useId, useState } from 'react';
import { ApiError, api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

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
  const [busy, setBusy] = useState(false);

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

  const send = async (path: string, body: Record<string, unknown>, done: string) => {
    if (!name.trim()) return setError('Type your name first.');
    setBusy(true);
    setError(undefined);
    try {
      await api('POST', `${base}/${path}`, { name, ...body });
      setStatus(done);
      setComment('');
      setDecisionComment('');
      await load();
    } catch (e) {
      setError(describeError(e));
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
        />
      </div>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!comment.trim()) return setError('Write a comment first.');
          void send('comments', { body: comment }, 'Comment added.');
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
          />
        </div>
        <button type="submit" className="btn" disabled={busy}>
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
            />
          </div>
          <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy}
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
              disabled={busy}
              onClick={() => {
                if (!decisionComment.trim()) return setError('Say what should change, then request changes.');
                void send('decision', { decision: 'reject', comment: decisionComment }, 'Changes requested.');
              }}
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
      <p role="status" aria-live="polite" className={status ? 'alert alert-ok' : 'sr-only'}>
        {status}
      </p>
    </div>
  );
}
