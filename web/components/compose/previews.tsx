import type { AccountSummary } from '#components/lib/platforms.ts';
import { versionOf } from './composer-selectors.ts';
import type { ComposerState } from './composer-state.ts';
import { PostPreview } from './post-preview.tsx';

/**
 * One live preview per selected account, from that account's version of the post. The post page
 * shows the same previews of the stored post under `title` ("What goes out").
 */
export function Previews({
  state,
  accounts,
  title = 'Previews',
}: {
  state: ComposerState;
  accounts: AccountSummary[];
  title?: string;
}) {
  const selected = accounts.filter((a) => state.selected.includes(a.id));
  if (selected.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="previews-title">
      <h2 id="previews-title" className="section-title">
        {title}
      </h2>
      <div className="previews">
        {selected.map((account) => {
          const version = versionOf(state, account.id);
          const options = state.options[account.id] ?? {};
          const firstComment = typeof options.firstComment === 'string' ? options.firstComment.trim() : '';
          return (
            <PostPreview
              key={account.id}
              account={account}
              content={{
                message: version.message,
                media: version.media,
                parts: state.thread,
                firstComment: firstComment || undefined,
                options,
              }}
            />
          );
        })}
      </div>
    </section>
  );
}
