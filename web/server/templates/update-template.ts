import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { checkedContent } from './content.ts';
import { findOwnTemplate } from './get-template.ts';
import { updateTemplateRow } from './repository.ts';
import type { TemplateView, UpdateTemplateInput } from './schema.ts';
import { toTemplateView } from './view.ts';

/**
 * `PATCH /api/v1/templates/{id}`: each given field replaces the stored one. Overrides of accounts
 * this request removes go with them (as on a post), so the template stays consistent.
 */
export async function updateTemplate(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: UpdateTemplateInput,
): Promise<TemplateView> {
  const stored = await findOwnTemplate(ctx, workspaceId, id);
  if (!stored) throw notFound('template');
  const accountIds = patch.accountIds ? [...new Set(patch.accountIds)] : stored.accountIds;
  const content = await checkedContent(ctx, workspaceId, patch, accountIds);
  const overrides =
    content.overrides ??
    Object.fromEntries(Object.entries(stored.overrides).filter(([key]) => accountIds.includes(key)));
  const row = await updateTemplateRow(ctx, workspaceId, id, {
    ...content,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    overrides,
    updatedAt: new Date(),
  });
  if (!row) throw notFound('template');
  return toTemplateView(row);
}
