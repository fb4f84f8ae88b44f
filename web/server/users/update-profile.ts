import type { AppContext } from '#server/context.ts';
import * as repo from './repository.ts';

/** Saves name and/or time zone (Settings, sign-up). */
export async function updateProfile(
  ctx: AppContext,
  userId: string,
  values: { name?: string | null; timezone?: string },
): Promise<void> {
  await repo.updateProfile(ctx, userId, values);
}
