import type { AppContext } from '#server/context.ts';
import { defaultsOf, snippetsOf } from './repository.ts';
import type { SnippetView } from './schema.ts';
import { toSnippetView } from './view.ts';

/** `GET /api/v1/snippets`: by kind, then name. */
export async function listSnippets(ctx: AppContext, workspaceId: string): Promise<SnippetView[]> {
  const rows = await snippetsOf(ctx, workspaceId);
  const defaults = await defaultsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toSnippetView(row, defaults.get(row.id) ?? []));
}
