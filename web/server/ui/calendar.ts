import { and, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { getContext } from '#server/context.ts';
import { posts } from '#server/db/schema.ts';

export interface CalendarEntry {
  id: string;
  status: 'scheduled' | 'posted' | 'failed';
  message: string;
  at: string;
  accountIds: string[];
}

/** The user's scheduled, posted and failed posts whose time falls in [from, to). */
export async function calendarEntries(userId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
  const ctx = await getContext();
  const at = sql<Date>`coalesce(${posts.postedAt}, ${posts.scheduledAt})`;
  const rows = await ctx.db
    .select({
      id: posts.id,
      status: posts.status,
      message: posts.message,
      accountIds: posts.accountIds,
      postedAt: posts.postedAt,
      scheduledAt: posts.scheduledAt,
    })
    .from(posts)
    .where(
      and(
        eq(posts.userId, userId),
        inArray(posts.status, ['scheduled', 'posted', 'failed']),
        or(
          and(gte(posts.scheduledAt, from), lt(posts.scheduledAt, to)),
          and(gte(posts.postedAt, from), lt(posts.postedAt, to)),
        ),
      ),
    )
    .orderBy(at)
    .limit(1000);
  return rows.flatMap((r) => {
    const when = r.postedAt ?? r.scheduledAt;
    if (!when || r.status === 'draft') return [];
    return [
      {
        id: r.id,
        status: r.status,
        message: r.message,
        at: when.toISOString(),
        accountIds: r.accountIds,
      },
    ];
  });
}
