import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { daysOf, num, todayIn } from './days.ts';
import { accountDays, ownedAccount, ownerTimezone } from './repository.ts';
import { type AccountSeriesView, parseRange } from './schema.ts';

/**
 * `GET /api/v1/accounts/{id}/metrics`: every day of the range (the caller's timezone) with the
 * account's followers (the day's last count), posts, and their engagement and impressions.
 */
export async function getAccountSeries(
  ctx: AppContext,
  owner: string,
  accountId: string,
  query: URLSearchParams,
): Promise<AccountSeriesView> {
  const account = await ownedAccount(ctx, owner, accountId);
  if (!account) throw notFound('account');
  const timezone = await ownerTimezone(ctx, owner);
  const range = parseRange(query, todayIn(timezone));
  const { posts, followers } = await accountDays(ctx, owner, account.id, range, timezone);
  const postsByDay = new Map(posts.map((r) => [String(r.date), r]));
  const followersByDay = new Map(followers.map((r) => [String(r.date), num(r.followers)]));
  return {
    timezone,
    series: daysOf(range.from, range.to).map((date) => {
      const day = postsByDay.get(date);
      const count = followersByDay.get(date);
      const engagement = num(day?.engagement);
      const impressions = num(day?.impressions);
      return {
        date,
        ...(count !== undefined ? { followers: count } : {}),
        posts: num(day?.posts) ?? 0,
        ...(engagement !== undefined ? { engagement } : {}),
        ...(impressions !== undefined ? { impressions } : {}),
      };
    }),
  };
}
