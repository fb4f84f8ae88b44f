import { accountsOf } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import { postProgress } from '#server/posts/repository.ts';
import type { GettingStartedSteps } from './schema.ts';

/** The guided start's three steps, done or not, for the app layout (issue 30). */
export async function gettingStartedSteps(
  ctx: AppContext,
  workspaceId: string,
): Promise<GettingStartedSteps> {
  const [accounts, progress] = await Promise.all([
    accountsOf(ctx, workspaceId),
    postProgress(ctx, workspaceId),
  ]);
  return { connected: accounts.length > 0, wrote: progress.wrote, scheduled: progress.scheduled };
}
