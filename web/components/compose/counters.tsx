import { accountName, platformName } from '#components/lib/platforms.ts';
import type { TargetCount } from './composer-selectors.ts';

export const countState = (used: number, limit: number) =>
  used > limit ? 'over' : used > limit * 0.9 ? 'near' : 'ok';

/** One counter per target, counting as that target's platform does; announced politely as it changes. */
export function Counters({
  id,
  counts,
  className = 'counter',
  testIdPrefix,
}: {
  id: string;
  counts: TargetCount[];
  className?: string;
  testIdPrefix?: string;
}) {
  return (
    <div className="counters" id={id} aria-live="polite">
      {counts.map(({ account, count, edited }) =>
        count ? (
          <span
            key={account.id}
            className={className}
            data-testid={testIdPrefix ? `${testIdPrefix}-${account.id}` : undefined}
            data-state={countState(count.used, count.limit)}
            title={`${platformName(account.platform)} counts ${count.unit}`}
          >
            {platformName(account.platform)} · {accountName(account)}
            {edited && <em> (own version)</em>}:{' '}
            <strong>
              {count.used.toLocaleString()} / {count.limit.toLocaleString()}
            </strong>
          </span>
        ) : null,
      )}
    </div>
  );
}
