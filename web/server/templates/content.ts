import { assertOverrideKeys, normalizeMedia, normalizeOverrides, normalizeThread } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import type { AppContext } from '#server/context.ts';
import { resolveContentMedia } from '#server/posts/content.ts';
import type { CreateTemplateInput, UpdateTemplateInput } from './schema.ts';

/**
 * Checks a template's content as a draft's is checked: its accounts are the workspace's, its
 * overrides name only those accounts, and its media are the workspace's (each 422 naming the
 * field). Returns the fields given, media resolved; absent fields stay absent.
 */
export async function checkedContent(
  ctx: AppContext,
  workspaceId: string,
  given: UpdateTemplateInput | CreateTemplateInput,
  /** The account ids the template will have (given or stored), for the override keys check. */
  accountIds: string[],
) {
  if (given.accountIds) await assertOwnedAccounts(ctx, workspaceId, [...new Set(given.accountIds)]);
  if (given.overrides) assertOverrideKeys(accountIds, given.overrides);
  const resolved = await resolveContentMedia(ctx, workspaceId, {
    media: given.media === undefined ? undefined : normalizeMedia(given.media),
    overrides: given.overrides === undefined ? undefined : normalizeOverrides(given.overrides),
    thread: given.thread === undefined ? undefined : normalizeThread(given.thread),
  });
  return {
    ...(given.message !== undefined ? { message: given.message } : {}),
    ...(given.accountIds ? { accountIds: [...new Set(given.accountIds)] } : {}),
    ...(given.accountOptions ? { accountOptions: given.accountOptions } : {}),
    ...resolved,
  };
}
