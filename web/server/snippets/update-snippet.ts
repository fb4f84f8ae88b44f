import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { checkedDefaults } from './defaults.ts';
import { defaultsOf, findSnippet, setDefaults, updateSnippetRow } from './repository.ts';
import type { SnippetView, UpdateSnippetInput } from './schema.ts';
import { toSnippetView } from './view.ts';

/**
 * `PATCH /api/v1/snippets/{id}`. A signature turned into another kind must give up its defaults
 * in the same request (`defaultFor: []`), else 422: nothing is dropped silently.
 */
export async function updateSnippet(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: UpdateSnippetInput,
): Promise<SnippetView> {
  const stored = isUuid(id) ? await findSnippet(ctx, workspaceId, id) : undefined;
  if (!stored) throw notFound('snippet');
  const kind = patch.kind ?? stored.kind;
  const current = (await defaultsOf(ctx, [id])).get(id) ?? [];
  const defaultFor = await checkedDefaults(ctx, workspaceId, kind, patch.defaultFor ?? current);
  const row = await inTransaction(ctx, async (tx) => {
    const updated = await updateSnippetRow(tx, workspaceId, id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.kind !== undefined ? { kind: patch.kind } : {}),
      ...(patch.body !== undefined ? { body: patch.body } : {}),
      updatedAt: new Date(),
    });
    if (updated && patch.defaultFor) await setDefaults(tx, workspaceId, id, defaultFor);
    return updated;
  });
  if (!row) throw notFound('snippet');
  return toSnippetView(row, defaultFor.toSorted());
}
