import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { checkedDefaults } from './defaults.ts';
import { insertSnippet, setDefaults } from './repository.ts';
import type { CreateSnippetInput, SnippetView } from './schema.ts';
import { toSnippetView } from './view.ts';

/** `POST /api/v1/snippets`; accounts in `defaultFor` move here from the signature that had them. */
export async function createSnippet(
  ctx: AppContext,
  workspaceId: string,
  input: CreateSnippetInput,
): Promise<SnippetView> {
  const defaultFor = await checkedDefaults(ctx, workspaceId, input.kind, input.defaultFor);
  const now = new Date();
  const row = await inTransaction(ctx, async (tx) => {
    const inserted = await insertSnippet(tx, {
      id: crypto.randomUUID(),
      workspaceId,
      name: input.name,
      kind: input.kind,
      body: input.body,
      createdAt: now,
      updatedAt: now,
    });
    await setDefaults(tx, workspaceId, inserted.id, defaultFor);
    return inserted;
  });
  return toSnippetView(row, defaultFor.toSorted());
}
