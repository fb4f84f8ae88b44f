import { recycleStopReasons } from './recycle-schema.ts';

/** What a recycling event's stored detail says, as the timeline's `recycle` field (docs/recycling.md). */
export function recycleDetail(detail: Record<string, unknown>) {
  const text = (key: string) => (typeof detail[key] === 'string' ? (detail[key] as string) : undefined);
  const reason = text('reason');
  const copyId = text('copyId');
  const fromPostId = text('fromPostId');
  const at = text('scheduledAt');
  return {
    ...(reason ? { reason } : {}),
    ...(copyId ? { copyId } : {}),
    ...(typeof detail.index === 'number' ? { index: detail.index } : {}),
    ...(at ? { scheduledAt: new Date(at).toISOString() } : {}),
    ...(fromPostId ? { fromPostId } : {}),
  };
}

/** The sentence the post page shows for a recycling event. */
export function describeRecycle(detail: Record<string, unknown>): string {
  const { reason, index } = recycleDetail(detail);
  if (!reason) return index === undefined ? 'scheduled a recycled copy' : `scheduled recycled copy ${index}`;
  return `stopped recycling: ${recycleStopReasons[reason] ?? reason.replaceAll('_', ' ')}`;
}
