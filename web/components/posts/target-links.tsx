import type { TargetLink, ValidationIssue } from '@postwave/shared';

/**
 * A target's tracked links (docs/links.md): the short link posted for each link of the text, its
 * clicks when collected, and the warnings of links posted long (a shortener that failed).
 */
export function TargetLinks({ links, warnings }: { links?: TargetLink[]; warnings?: ValidationIssue[] }) {
  const shortened = (links ?? []).filter((l) => l.shortUrl);
  if (shortened.length === 0 && !warnings?.length) return null;
  return (
    <div className="small stack" style={{ gap: 4, marginTop: 4 }}>
      {shortened.length > 0 && (
        <ul aria-label="Short links" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shortened.map((l) => (
            <li key={l.url} style={{ overflowWrap: 'anywhere' }}>
              <a href={l.shortUrl} style={{ textDecoration: 'underline' }}>
                {l.shortUrl}
              </a>{' '}
              <span className="muted">→ {l.url}</span>
              {l.clicks !== undefined && (
                <span className="muted">
                  {' '}
                  · {l.clicks} {l.clicks === 1 ? 'click' : 'clicks'}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {warnings?.map((w) => (
        <p key={`${w.code}-${w.message}`} className="muted" style={{ overflowWrap: 'anywhere' }}>
          <strong>Note:</strong> {w.message}
        </p>
      ))}
    </div>
  );
}
