'use client';

import { initialState } from '#components/compose/composer-state.ts';
import { Previews } from '#components/compose/previews.tsx';
import type { AccountSummary } from '#components/lib/platforms.ts';
import type { PostView } from '#server/posts/schema.ts';

/**
 * Exactly what goes out, per account: the composer's previews of the stored post (each account's
 * version, thread parts where the platform threads, the first comment, media with its alt text),
 * so the post page and the composer never disagree (issue 30).
 */
export function Outgoing({
  post,
  accounts,
  timezone,
}: {
  post: PostView;
  accounts: AccountSummary[];
  timezone: string;
}) {
  const targets = accounts.filter((a) => post.accountIds.includes(a.id));
  if (targets.length === 0) {
    // Every account it went to is disconnected: the stored text is what is left to show.
    return (
      <section className="card card-body" aria-label="Post content">
        <p className="post-message">{post.message.trim() || 'No text: media only.'}</p>
      </section>
    );
  }
  return (
    <div data-testid="outgoing">
      <Previews state={initialState(targets, timezone, post)} accounts={targets} title="What goes out" />
    </div>
  );
}
