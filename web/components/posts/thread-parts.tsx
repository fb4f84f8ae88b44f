import { Icon } from '#components/icons.tsx';
import { plainError, StatusBadge } from './status.tsx';

/** A thread part's outcome (docs/composer-fields.md): index 0 is the first message. */
export interface ResultPart {
  index: number;
  status: string;
  platformPostId?: string;
  url?: string;
  error?: { code: string; message: string };
}

/** The parts of a result, when the server reports them (a thread, or a first comment). */
export function resultParts(result: unknown): ResultPart[] {
  const parts = (result as { parts?: unknown } | undefined)?.parts;
  return Array.isArray(parts) ? (parts as ResultPart[]) : [];
}

/** Each part of a published thread with its status and link, so a failed part is easy to find. */
export function ThreadParts({ parts, platformName }: { parts: ResultPart[]; platformName: string }) {
  return (
    <ol className="result-parts list" aria-label="Thread parts" data-testid="result-parts">
      {[...parts]
        .sort((a, b) => a.index - b.index)
        .map((part) => {
          const error = part.error ? plainError(part.error) : undefined;
          return (
            <li key={part.index} className="result-part small" data-testid="result-part">
              <span>{part.index === 0 ? 'Part 1 (the message)' : `Part ${part.index + 1}`}</span>
              <StatusBadge status={part.status} />
              {part.status === 'posted' && part.url && (
                <a href={part.url} target="_blank" rel="noreferrer">
                  View on {platformName} <Icon name="external" size={14} />
                  <span className="sr-only"> (part {part.index + 1})</span>
                </a>
              )}
              {error && (
                <span style={{ color: 'var(--danger)' }}>
                  {error.summary} <span className="muted">{error.detail}</span>
                </span>
              )}
            </li>
          );
        })}
    </ol>
  );
}
