import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { deleteTemplateRow } from './repository.ts';

/** `DELETE /api/v1/templates/{id}`. Posts made from it keep their content: they hold a copy. */
export async function deleteTemplate(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteTemplateRow(ctx, workspaceId, id))) throw notFound('template');
}
