'use client';

import { useEffect, useRef, useState } from 'react';
import { AccountAvatar } from '#components/account-avatar.tsx';
import { Icon } from '#components/icons.tsx';
import { api, describeError } from '#components/lib/api.ts';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import { formatSlot } from '#components/lib/time.ts';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import type { QueueMove, QueueViewShape } from '#server/queue/schema.ts';
import { SlotEditor, type SuggestedSlots } from './slot-editor.tsx';

const excerpt = (message: string) => {
  const text = message.trim() || 'Media post';
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

const moveWords: Record<QueueMove, string> = { up: 'Moved up', down: 'Moved down', next: 'Posting next' };

/** One account's queue: its upcoming posts in slot order with reorder and "Post next", and its slots. */
export function QueueBoard({
  account,
  initial,
  zones,
  suggested,
}: {
  account: AccountSummary;
  initial: QueueViewShape;
  zones: string[];
  /** The account's best times (docs/analytics.md#best-times), offered as slots. */
  suggested?: SuggestedSlots;
}) {
  const { locale } = useTimeSettings();
  const [queue, setQueue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string>();
  const list = useRef<HTMLOListElement>(null);
  const focusAfterMove = useRef<{ postId: string; move: QueueMove }>(undefined);

  // Keep focus on the post that moved, on the same kind of button when it is still enabled; once
  // the new order is rendered and the buttons are enabled again.
  useEffect(() => {
    const pending = focusAfterMove.current;
    if (!pending || busy) return;
    focusAfterMove.current = undefined;
    const item = list.current?.querySelector<HTMLElement>(`[data-post-id="${pending.postId}"]`);
    const same = item?.querySelector<HTMLButtonElement>(`button[data-move="${pending.move}"]:not(:disabled)`);
    (same ?? item?.querySelector<HTMLButtonElement>('button:not(:disabled)') ?? item)?.focus();
  }, [busy]);
  const name = accountName(account);
  const headingId = `queue-${account.id}`;

  async function move(postId: string, move: QueueMove, message: string) {
    setBusy(true);
    setError(undefined);
    try {
      const next = await api<QueueViewShape>('POST', `/api/v1/accounts/${account.id}/queue/move`, {
        postId,
        move,
      });
      setQueue(next);
      const moved = next.posts.findIndex((p) => p.id === postId);
      const post = next.posts[moved];
      setAnnouncement(
        post
          ? `${moveWords[move]}: “${excerpt(message)}” is now ${moved + 1} of ${next.posts.length}, ${formatSlot(post.scheduledAt, next.timezone, locale)}.`
          : '',
      );
      focusAfterMove.current = { postId, move };
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card queue-card" aria-labelledby={headingId}>
      <div className="card-head queue-head">
        <AccountAvatar account={account} size="sm" />
        <div>
          <h2 id={headingId}>{name}</h2>
          <p className="cell-sub">
            {platformName(account.platform)} · {accountHandle(account)} · slots in {queue.timezone}
          </p>
        </div>
      </div>
      <div className="card-body queue-body">
        <div>
          <h3 className="queue-subhead">Upcoming posts</h3>
          {queue.posts.length === 0 ? (
            <p className="muted small">Nothing queued for this account.</p>
          ) : (
            <ol className="queue-list" ref={list} aria-label={`Queued posts for ${name}`}>
              {queue.posts.map((post, i) => (
                <li key={post.id} className="queue-item" data-post-id={post.id} tabIndex={-1}>
                  <div className="queue-item-text">
                    <time dateTime={post.scheduledAt} className="queue-time">
                      {formatSlot(post.scheduledAt, queue.timezone, locale)}
                    </time>
                    <a href={`/posts/${post.id}`} className="queue-message">
                      {excerpt(post.message)}
                    </a>
                    {!post.onSlot && <span className="badge">Custom time</span>}
                  </div>
                  <div className="queue-actions">
                    <button
                      type="button"
                      className="btn btn-sm"
                      data-move="up"
                      disabled={busy || i === 0}
                      aria-label={`Move “${excerpt(post.message)}” up`}
                      onClick={() => move(post.id, 'up', post.message)}
                    >
                      <Icon name="arrowUp" size={16} /> Up
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm"
                      data-move="down"
                      disabled={busy || i === queue.posts.length - 1}
                      aria-label={`Move “${excerpt(post.message)}” down`}
                      onClick={() => move(post.id, 'down', post.message)}
                    >
                      <Icon name="arrowDown" size={16} /> Down
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm"
                      data-move="next"
                      disabled={busy || (i === 0 && !earlierFreeSlot(queue))}
                      aria-label={`Post next: “${excerpt(post.message)}”`}
                      onClick={() => move(post.id, 'next', post.message)}
                    >
                      Post next
                    </button>
                  </div>
                </li>
              ))}
            </ol>
          )}
          {queue.freeSlots.length > 0 && (
            <p className="muted small">
              Next free slot: {formatSlot(queue.freeSlots[0]!, queue.timezone, locale)}
            </p>
          )}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <p className="sr-only" aria-live="polite" role="status">
            {announcement}
          </p>
        </div>
        <SlotEditor
          accountId={account.id}
          accountName={name}
          queue={queue}
          zones={zones}
          suggested={suggested}
          onSaved={setQueue}
        />
      </div>
    </section>
  );
}

/** "Post next" on the first post still helps when a free slot comes before it. */
function earlierFreeSlot(queue: QueueViewShape): boolean {
  const first = queue.posts[0];
  const free = queue.freeSlots[0];
  return Boolean(first && free && free < first.scheduledAt);
}
