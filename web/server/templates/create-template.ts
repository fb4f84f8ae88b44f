import type { AppContext } from '#server/context.ts';
import { checkedContent } from './content.ts';
import { insertTemplate } from './repository.ts';
import type { CreateTemplateInput, TemplateView } from './schema.ts';
import { toTemplateView } from './view.ts';

/** `POST /api/v1/templates`. */
export async function createTemplate(
  ctx: AppContext,
  workspaceId: string,
  input: CreateTemplateInput,
): Promise<TemplateView> {
  const content = await checkedContent(ctx, workspaceId, input, input.accountIds);
  const now = new Date();
  const row = await insertTemplate(ctx, {
    id: crypto.randomUUID(),
    workspaceId,
    name: input.name,
    message: input.message,
    accountIds: content.accountIds ?? [],
    media: content.media ?? [],
    accountOptions: content.accountOptions ?? {},
    overrides: content.overrides ?? {},
    thread: content.thread ?? [],
    createdAt: now,
    updatedAt: now,
  });
  return toTemplateView(row);
}
