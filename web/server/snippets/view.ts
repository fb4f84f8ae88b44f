import type { SnippetRow } from './repository.ts';
import type { SnippetView } from './schema.ts';

export function toSnippetView(row: SnippetRow, defaultFor: string[]): SnippetView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    body: row.body,
    defaultFor,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
