import type { TemplateRow } from './repository.ts';
import type { TemplateView } from './schema.ts';

export function toTemplateView(row: TemplateRow): TemplateView {
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    media: row.media,
    accountIds: row.accountIds,
    accountOptions: row.accountOptions,
    overrides: row.overrides,
    thread: row.thread,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
