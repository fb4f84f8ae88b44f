import { getContext } from '#server/context.ts';
import { postsInWindow } from '#server/posts/repository.ts';

import type { CalendarEntry } from './schema.ts';

export type { CalendarEntry } from './schema.ts';

/** The user's scheduled, posted and failed posts whose time falls in [from, to). */
export async function calendarEntries(workspaceId: string, from: Date, to: Date): Promise<CalendarEntry[]> {
  const ctx = await getContext();
  const rows = await postsInWindow(ctx, workspaceId, from, to);
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
        ...(r.status === 'scheduled' && r.risk ? { risk: r.risk.message } : {}),
      },
    ];
  });
}
