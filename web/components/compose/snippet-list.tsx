import type { SnippetSummary } from './signatures.ts';
import { snippetOptionId } from './snippet-search.ts';

const kindLabels: Record<SnippetSummary['kind'], string> = {
  signature: 'Signature',
  hashtags: 'Hashtags',
  text: 'Text',
};

/**
 * The snippet listbox. Focus stays in the text field that controls it (the message, or the
 * picker's search field), which points at the active option with `aria-activedescendant`.
 */
export function SnippetList({
  id,
  snippets,
  active,
  onPick,
}: {
  id: string;
  snippets: SnippetSummary[];
  active: number;
  onPick: (snippet: SnippetSummary) => void;
}) {
  return (
    <div id={id} role="listbox" aria-label="Snippets" className="combobox-list snippet-list">
      {snippets.map((snippet, index) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the controlling text field handles the keyboard (aria-activedescendant)
        <div
          key={snippet.id}
          id={snippetOptionId(id, index)}
          role="option"
          tabIndex={-1}
          aria-selected={index === active}
          className="combobox-option"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(snippet)}
        >
          <span className="snippet-name">{snippet.name}</span>{' '}
          <span className="muted small">
            {kindLabels[snippet.kind]} ·{' '}
            {snippet.body.length > 50 ? `${snippet.body.slice(0, 49)}…` : snippet.body}
          </span>
        </div>
      ))}
    </div>
  );
}
