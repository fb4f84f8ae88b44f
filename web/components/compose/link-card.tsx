import type { LinkPreview } from './use-link-preview.ts';

/** The card a platform builds from the page's Open Graph tags. */
export function LinkCard({ card }: { card: LinkPreview }) {
  const host = safeHost(card.url);
  return (
    <a
      className="link-card"
      href={card.url}
      target="_blank"
      rel="noreferrer noopener"
      data-testid="link-card"
    >
      {/* Only https images: the page's CSP allows no others, and they would be mixed content. */}
      {card.image?.startsWith('https://') && (
        // biome-ignore lint/performance/noImgElement: a remote page's image, shown as the platform shows it
        <img src={card.image} alt="" referrerPolicy="no-referrer" loading="lazy" />
      )}
      <span className="link-card-text">
        <span className="small muted">{card.siteName ?? host}</span>
        {card.title && <strong>{card.title}</strong>}
        {card.description && <span className="small">{card.description}</span>}
      </span>
    </a>
  );
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
