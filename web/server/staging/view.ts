import type { AppContext } from '#server/context.ts';
import { type StagingView, stagingsOf } from './repository.ts';
import type { TargetStaging } from './schema.ts';

export function toTargetStaging(view: StagingView): TargetStaging {
  return {
    accountId: view.accountId,
    platform: view.platform,
    status: view.status,
    ...(view.expiresAt ? { expiresAt: view.expiresAt.toISOString() } : {}),
    ...(view.error ? { error: view.error } : {}),
  };
}

/** The staging state of posts by id, as the Post resource shows it. */
export async function stagingByPost(
  ctx: AppContext,
  postIds: readonly string[],
): Promise<Map<string, TargetStaging[]>> {
  const views = await stagingsOf(ctx, postIds);
  return new Map([...views].map(([id, list]) => [id, list.map(toTargetStaging)]));
}
