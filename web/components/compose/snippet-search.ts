import type { SnippetSummary } from './signatures.ts';

/* The snippet picker's logic, apart from its markup (tested without a browser). */

/** Snippets whose name, kind or text contains `query` (any case). */
export function matchingSnippets(snippets: readonly SnippetSummary[], query: string): SnippetSummary[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...snippets];
  return snippets.filter((s) => `${s.name} ${s.kind} ${s.body}`.toLowerCase().includes(q));
}

export const snippetOptionId = (listId: string, index: number) => `${listId}-option-${index}`;

/** Arrow keys move through `count` options (wrapping); answers the next active index, or undefined. */
export function movedActive(key: string, active: number, count: number): number | undefined {
  if (count === 0) return undefined;
  if (key === 'ArrowDown') return (active + 1) % count;
  if (key === 'ArrowUp') return (active - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

/** The `/query` being typed at the caret: where its slash is, or undefined when there is none. */
export function slashQueryAt(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf('/');
  if (start < 0) return undefined;
  if (start > 0 && !/\s/.test(before[start - 1]!)) return undefined;
  const query = before.slice(start + 1);
  if (/\s/.test(query)) return undefined;
  return { start, query };
}
