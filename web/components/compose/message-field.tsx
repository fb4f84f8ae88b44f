import type { Dispatch } from 'react';
import { accountName, platformName } from '#components/lib/platforms.ts';
import type { TargetCount } from './composer-selectors.ts';
import type { ComposerAction } from './composer-state.ts';

/** The message, with one counter per target counting as that target's platform does. */
export function MessageField({
  message,
  counts,
  dispatch,
}: {
  message: string;
  counts: TargetCount[];
  dispatch: Dispatch<ComposerAction>;
}) {
  return (
    <div className="field">
      <label htmlFor="message" className="section-title">
        Message
      </label>
      <textarea
        id="message"
        className="textarea"
        value={message}
        onChange={(e) => dispatch({ type: 'message', message: e.target.value })}
        placeholder="What do you want to share?"
        rows={8}
        aria-describedby="counters"
      />
      <div className="counters" id="counters" aria-live="polite">
        {counts.map(({ account, count }) =>
          count ? (
            <span
              key={account.id}
              className="counter"
              data-testid={`counter-${account.id}`}
              data-state={count.used > count.limit ? 'over' : count.used > count.limit * 0.9 ? 'near' : 'ok'}
              title={`${platformName(account.platform)} counts ${count.unit}`}
            >
              {platformName(account.platform)} · {accountName(account)}:{' '}
              <strong>
                {count.used.toLocaleString()} / {count.limit.toLocaleString()}
              </strong>
            </span>
          ) : null,
        )}
      </div>
    </div>
  );
}
