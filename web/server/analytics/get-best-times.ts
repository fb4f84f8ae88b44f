import { rankBestTimes } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { engagementByHour, ownedAccount, ownerTimezone } from './repository.ts';
import type { BestTimesView } from './schema.ts';

/**
 * `GET /api/v1/accounts/{id}/best-times`: the hours of the week ranked by the median engagement
 * per post of the account's own history (at least 20 posted targets with figures).
 */
export async function getBestTimes(
  ctx: AppContext,
  owner: string,
  accountId: string,
): Promise<BestTimesView> {
  const account = await ownedAccount(ctx, owner, accountId);
  if (!account) throw notFound('account');
  const timezone = await ownerTimezone(ctx, owner);
  return { timezone, ...rankBestTimes(await engagementByHour(ctx, owner, account.id, timezone)) };
}
