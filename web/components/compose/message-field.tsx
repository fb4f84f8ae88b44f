import type { Dispatch } from 'react';
import type { TargetCount } from './composer-selectors.ts';
import type { ComposerAction } from './composer-state.ts';
import { Counters } from './counters.tsx';

/** The base message, with one counter per target counting as that target's platform does. */
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
      <Counters id="counters" counts={counts} testIdPrefix="counter" />
    </div>
  );
}
