import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { deleteSnippetRow } from './repository.ts';

/** `DELETE /api/v1/snippets/{id}`: its defaults go with it; text already in posts stays. */
export async function deleteSnippet(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteSnippetRow(ctx, workspaceId, id))) throw notFound('snippet');
}
