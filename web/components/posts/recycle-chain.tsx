import Link from 'next/link';
import { formatDateTime } from '#components/lib/time.ts';
import { StatusBadge } from './status.tsx';
import { StopRecycling } from './stop-recycling.tsx';

/** What the post page knows of a recycling chain (server/posts/recycle-chain.ts). */
export interface ChainView {
  originalId: string;
  recycle: { intervalDays: number; maxTimes: number; jitterMinutes: number; until?: string } | null;
  copies: {
    id: string;
    status: 'draft' | 'scheduled' | 'posted' | 'failed' | 'pending_approval';
    index: number;
    scheduledAt: string | null;
    postedAt: string | null;
  }[];
  stops: { at: string; reason: string; description: string; accountId?: string }[];
}

/** The original and its copies, which one this is, the settings and why the chain stopped. */
export function RecycleChain({
  postId,
  chain,
  accountName,
  timezone,
  locale,
}: {
  postId: string;
  chain: ChainView;
  accountName: (id: string) => string;
  timezone: string;
  locale: string;
}) {
  const { recycle } = chain;
  const isOriginal = postId === chain.originalId;
  const here = chain.copies.find((c) => c.id === postId);
  return (
    <section className="card card-body stack" aria-labelledby="recycle-title" data-testid="recycle-chain">
      <h2 id="recycle-title">Repeats</h2>
      {here && (
        <p className="small">
          Copy {here.index} of <Link href={`/posts/${chain.originalId}`}>the original post</Link>.
        </p>
      )}
      <p id="recycle-settings" className="small" tabIndex={-1}>
        {recycle
          ? `Every ${recycle.intervalDays} days, at most ${recycle.maxTimes} ${recycle.maxTimes === 1 ? 'time' : 'times'}${recycle.jitterMinutes ? `, varied by up to ${recycle.jitterMinutes} minutes` : ''}${recycle.until ? `, until ${formatDateTime(recycle.until, timezone, locale)}` : ''}.`
          : 'Repeating is off.'}
      </p>
      <ol className="recycle-chain" aria-label="The chain">
        <li>
          {isOriginal ? (
            <strong aria-current="page">Original</strong>
          ) : (
            <Link href={`/posts/${chain.originalId}`}>Original</Link>
          )}
        </li>
        {chain.copies.map((copy) => {
          const when = copy.postedAt ?? copy.scheduledAt;
          return (
            <li key={copy.id} className="row" style={{ gap: 4 }}>
              {copy.id === postId ? (
                <strong aria-current="page">Copy {copy.index}</strong>
              ) : (
                <Link href={`/posts/${copy.id}`}>Copy {copy.index}</Link>
              )}
              <StatusBadge status={copy.status} />
              {when && (
                <time className="muted small" dateTime={when}>
                  {formatDateTime(when, timezone, locale)}
                </time>
              )}
            </li>
          );
        })}
      </ol>
      {chain.stops.length > 0 && (
        <ul className="list small" aria-label="Why repeating stopped" data-testid="recycle-stops">
          {chain.stops.map((stop) => (
            <li key={`${stop.at}-${stop.reason}-${stop.accountId ?? ''}`}>
              {stop.accountId ? `${accountName(stop.accountId)}: ` : ''}
              {stop.description}
            </li>
          ))}
        </ul>
      )}
      {/* Mounted while repeating is off too: it hands the focus on once its button has gone. */}
      {isOriginal && <StopRecycling postId={postId} active={recycle !== null} />}
    </section>
  );
}
