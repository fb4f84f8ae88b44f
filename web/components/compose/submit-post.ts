import { api } from '#components/lib/api.ts';
import { zonedToUtc } from '#components/lib/time.ts';
import type { PostBody } from './composer-selectors.ts';
import type { EditablePost, SubmitMode } from './composer-state.ts';
import type { RecycleSettings } from './recycle-field.tsx';

/** A refusal found before any request is sent. */
export class SubmitRefused extends Error {}

/** The composer's one sentence for a schedule time that has passed, whoever noticed it. */
export const pastTimeMessage = 'That time has passed. Pick a time in the future.';

/** The UTC time to schedule at, from the picker's local value in the user's time zone. */
export function scheduledTime(local: string, timezone: string, now = Date.now()): string {
  const when = zonedToUtc(local, timezone);
  if (!when) throw new SubmitRefused('Pick a date and time to schedule the post.');
  if (when.getTime() < now - 30_000) throw new SubmitRefused(pastTimeMessage);
  return when.toISOString();
}

/**
 * Saves the post (creating it, or updating the one being edited) and hands it to the chosen
 * posting mode. Returns the post id; throws `ApiError` when the server refuses.
 */
export async function submitPost(
  mode: SubmitMode,
  body: PostBody,
  post: EditablePost | undefined,
  scheduledAt: string | undefined,
  /** Evergreen recycling (null: off); undefined leaves it as it is (a recycled copy). */
  recycle?: RecycleSettings | null,
): Promise<string> {
  const timing = scheduledAt ? { scheduledAt } : {};
  if (!post) {
    const created = await api<{ id: string }>('POST', '/api/v1/posts', {
      ...body,
      ...(recycle ? { recycle } : {}),
      postingMode: mode,
      ...timing,
    });
    return created.id;
  }
  await api('PATCH', `/api/v1/posts/${post.id}`, {
    message: body.message,
    ...(body.accountIds.length ? { accountIds: body.accountIds } : {}),
    media: body.media,
    accountOptions: body.accountOptions,
    // The composer fields (docs/composer-fields.md): an empty value clears what the post had.
    overrides: body.overrides ?? {},
    thread: body.thread ?? [],
    ...(recycle !== undefined ? { recycle } : {}),
  });
  // Saving a draft as a draft needs no transition.
  if (!(mode === 'draft' && post.status === 'draft')) {
    await api('POST', `/api/v1/posts/${post.id}`, { postingMode: mode, ...timing });
  }
  return post.id;
}
