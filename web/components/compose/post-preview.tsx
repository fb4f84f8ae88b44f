import { AccountAvatar } from '#components/account-avatar.tsx';
import {
  type AccountSummary,
  accountHandle,
  accountName,
  countFor,
  manifestFor,
  platformName,
} from '#components/lib/platforms.ts';
import { mediaRefs } from './composer-selectors.ts';
import type { MediaItem } from './composer-state.ts';
import { countState } from './counters.tsx';
import { LinkCard } from './link-card.tsx';
import { firstUrl, splitAtLimit } from './preview-text.ts';
import { useLinkPreview } from './use-link-preview.ts';

export interface PreviewContent {
  message: string;
  media: MediaItem[];
  parts: { message: string; media: MediaItem[] }[];
  firstComment: string | undefined;
  options: Record<string, unknown>;
}

/** How the post will look on one account: its text cut where the platform cuts, media, link card, thread, first comment. */
export function PostPreview({ account, content }: { account: AccountSummary; content: PreviewContent }) {
  const manifest = manifestFor(account.platform);
  const name = accountName(account);
  const hasMedia = mediaRefs(content.media).length > 0;
  const url = hasMedia ? undefined : firstUrl(content.message);
  const card = useLinkPreview(url);
  const parts = manifest?.features.thread ? content.parts : [];
  const comment = manifest?.features.firstComment ? content.firstComment : undefined;
  return (
    <article
      className="preview"
      aria-label={`Preview on ${platformName(account.platform)} for ${name}`}
      data-testid={`preview-${account.id}`}
      style={manifest ? { borderTopColor: manifest.color } : undefined}
    >
      <Bubble account={account} message={content.message} media={content.media} options={content.options}>
        {card && <LinkCard card={card} />}
      </Bubble>
      {parts.length > 0 && (
        <ol className="preview-chain list" aria-label="Thread">
          {parts.map((part, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their position in the preview
            <li key={index} data-testid="preview-part">
              <span className="sr-only">Part {index + 2}: </span>
              <Bubble account={account} message={part.message} media={part.media} options={content.options} />
            </li>
          ))}
        </ol>
      )}
      {comment && (
        <div className="preview-comment" data-testid="preview-comment">
          <span className="small muted">First comment</span>
          <p>{comment}</p>
        </div>
      )}
    </article>
  );
}

function Bubble({
  account,
  message,
  media,
  options,
  children,
}: {
  account: AccountSummary;
  message: string;
  media: MediaItem[];
  options: Record<string, unknown>;
  children?: React.ReactNode;
}) {
  const shown = media.filter((m) => m.preview || m.media);
  const input = { message, hasMedia: mediaRefs(media).length > 0, options };
  const count = countFor(account.platform, input);
  const { fits, overflow } = splitAtLimit(account.platform, input);
  return (
    <div className="preview-bubble">
      <div className="preview-head">
        <AccountAvatar account={account} size="sm" />
        <span className="preview-who">
          <strong>{accountName(account)}</strong>{' '}
          <span className="muted small">{accountHandle(account)}</span>
        </span>
        {count && (
          <span className="preview-counter small" data-state={countState(count.used, count.limit)}>
            {count.used.toLocaleString()} / {count.limit.toLocaleString()}
            <span className="sr-only"> {count.unit}</span>
          </span>
        )}
      </div>
      {message && (
        <p className="preview-text">
          {fits}
          {overflow && (
            <mark className="preview-overflow" data-testid="preview-overflow">
              <span className="sr-only"> (over the limit from here:) </span>
              {overflow}
            </mark>
          )}
        </p>
      )}
      {shown.length > 0 && (
        <div className="preview-media" data-count={Math.min(shown.length, 4)}>
          {shown.map((m) => {
            const src = m.media?.url ?? m.preview;
            return m.contentType.startsWith('image/') && src ? (
              // biome-ignore lint/performance/noImgElement: the user's own media as the platform will show it
              <img key={m.localId} src={m.preview ?? src} alt={m.altText?.trim() ?? ''} />
            ) : (
              <span key={m.localId} className="preview-file small">
                {m.filename}
              </span>
            );
          })}
        </div>
      )}
      {shown.some((m) => m.contentType.startsWith('image/')) && (
        <ul className="preview-alts small" aria-label="Alt text">
          {shown
            .filter((m) => m.contentType.startsWith('image/'))
            .map((m) => (
              <li key={m.localId} data-testid="preview-alt">
                {m.altText?.trim() ? (
                  <>
                    <span className="muted">Alt text: </span>
                    {m.altText.trim()}
                  </>
                ) : (
                  <span className="muted">{m.filename}: no alt text</span>
                )}
              </li>
            ))}
        </ul>
      )}
      {children}
    </div>
  );
}
