import { getContext } from '#server/context.ts';
import { postsInWindow } from '#server/posts/repository.ts';

import type { CalendarEntry } from './schema.ts';

export type { CalendarEntry } from './schema.ts';

/**
 * The workspace's scheduled, posted, failed and pending posts whose time falls in [from, to): when
 * they posted, were due, or (published now, or waiting to be) were last attempted or changed.
 */
export async function calendarEntries(workspaceId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
  const ctx = await getContext();
  const rows = await postsInWindow(ctx, workspaceId, from, to);
  return rows.flatMap((r) => {
    if (r.status === 'draft') return [];
    return [
      {
        id: r.id,
        status: r.status,
        message: r.message,
        at: r.at.toISOString(),
        accountIds: r.accountIds,
        ...(r.status === 'scheduled' && r.risk ? { risk: r.risk.message } : {}),
      },
    ];
  });
}
