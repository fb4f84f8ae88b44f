import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { findTemplate, type TemplateRow } from './repository.ts';
import type { TemplateView } from './schema.ts';
import { toTemplateView } from './view.ts';

/** The workspace's template, or undefined (another workspace's is missing too). */
export async function findOwnTemplate(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<TemplateRow | undefined> {
  return isUuid(id) ? findTemplate(ctx, workspaceId, id) : undefined;
}

/** `GET /api/v1/templates/{id}`: 404 for a missing template or another workspace's. */
export async function getTemplate(ctx: AppContext, workspaceId: string, id: string): Promise<TemplateView> {
  const row = await findOwnTemplate(ctx, workspaceId, id);
  if (!row) throw notFound('template');
  return toTemplateView(row);
}
