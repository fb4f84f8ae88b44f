import type { AppContext } from '#server/context.ts';
import { templatesOf } from './repository.ts';
import type { TemplateView } from './schema.ts';
import { toTemplateView } from './view.ts';

/** `GET /api/v1/templates`: the workspace's templates by name. */
export async function listTemplates(ctx: AppContext, workspaceId: string): Promise<TemplateView[]> {
  return (await templatesOf(ctx, workspaceId)).map(toTemplateView);
}
