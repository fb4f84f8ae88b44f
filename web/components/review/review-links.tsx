'use client';

import { useCallback, useEffect, useId, useState } from 'react';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

interface LinkRow {
  id: string;
  allowDecision: boolean;
  expiresAt: string;
  createdAt: string;
  state: 'active' | 'expired' | 'revoked';
}

/**
 * A post's client review links (docs/workspaces.md#review-links): create one (its url is shown
 * once, with a copy button), see the others' state, revoke.
 */
export function ReviewLinks({
  postId,
  timezone,
  locale,
  canManage,
}: {
  postId: string;
  timezone: string;
  /** The reader's locale, as every other date on the post page is written in (server/ui/locale.ts). */
  locale: string;
  canManage: boolean;
}) {
  const base = `/api/v1/posts/${postId}/review-links`;
  const decisionId = useId();
  const urlId = useId();
  const [links, setLinks] = useState<LinkRow[]>([]);
  const [fresh, setFresh] = useState<string>();
  const [allowDecision, setAllowDecision] = useState(true);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState<string>();
  const focusAfterRender = useFocusAfterRender();
  const createId = useId();
  const revokeId = (id: string) => `${createId}-revoke-${id}`;

  const load = useCallback(async () => {
    try {
      setLinks((await api<{ links: LinkRow[] }>('GET', base)).links);
    } catch (e) {
      setError(describeError(e));
    }
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async () => {
    setError(undefined);
    try {
      const made = await api<{ url: string }>('POST', base, { allowDecision });
      setFresh(made.url);
      setStatus('Review link created. Copy it now: it is shown only once.');
      await load();
    } catch (e) {
      setError(describeError(e));
    }
  };
  const revoke = async (id: string) => {
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    setBusy(id);
    setError(undefined);
    try {
      await api('DELETE', `${base}/${id}`);
      setStatus('Review link revoked.');
      // Its Revoke button goes: the focus moves to the next active link's, else the previous
      // one's, else to Create review link.
      const active = links.filter((l) => l.state === 'active');
      const at = active.findIndex((l) => l.id === id);
      const neighbour = active[at + 1] ?? active[at - 1];
      focusAfterRender(neighbour ? revokeId(neighbour.id) : createId);
      await load();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(undefined);
    }
  };

  const created = (l: LinkRow) => formatDateTime(l.createdAt, timezone, locale);
  /** What each Revoke says it revokes; links made in the same minute are told apart by their place. */
  const revokeName = (l: LinkRow, i: number) =>
    `review link created ${created(l)}${
      links.filter((o) => created(o) === created(l)).length > 1 ? `, number ${i + 1} of ${links.length}` : ''
    }`;

  return (
    <section className="card stack" aria-labelledby="review-links-title">
      <h2 id="review-links-title">Client review links</h2>
      <p className="muted small">
        Someone without an account previews the post, comments and, if allowed, approves it.
      </p>
      {canManage && (
        <div className="stack" style={{ gap: 8 }}>
          <label className="row small" htmlFor={decisionId} style={{ gap: 6 }}>
            <input
              id={decisionId}
              type="checkbox"
              checked={allowDecision}
              onChange={(e) => setAllowDecision(e.target.checked)}
            />
            The client may approve or request changes
          </label>
          <button id={createId} type="button" className="btn" onClick={create}>
            Create review link
          </button>
        </div>
      )}
      {fresh && (
        <div className="stack" style={{ gap: 6 }}>
          <label htmlFor={urlId} className="small">
            Review link (shown once)
          </label>
          <input id={urlId} className="input" readOnly value={fresh} onFocus={(e) => e.target.select()} />
          <button
            type="button"
            className="btn"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(fresh);
                setStatus('Copied.');
              } catch {
                setStatus('Select the link and copy it.');
              }
            }}
          >
            Copy link
          </button>
        </div>
      )}
      {links.length > 0 && (
        <ul className="list" aria-label="Review links">
          {links.map((l, i) => (
            <li key={l.id} className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
              <span className="small">
                {l.state === 'active' ? 'Active' : l.state === 'expired' ? 'Expired' : 'Revoked'}
                {l.allowDecision ? ', may decide' : ', comments only'} · until{' '}
                {formatDateTime(l.expiresAt, timezone, locale)}
              </span>
              {canManage && l.state === 'active' && (
                <button
                  id={revokeId(l.id)}
                  type="button"
                  className="btn btn-danger"
                  aria-disabled={busy !== undefined || undefined}
                  onClick={() => revoke(l.id)}
                >
                  Revoke<span className="sr-only"> {revokeName(l, i)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}
