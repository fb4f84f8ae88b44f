'use client';

import { useId } from 'react';
import { utcToZonedInput, zonedToUtc } from '#components/lib/time.ts';

/** `recycle` as the API takes it (docs/recycling.md). */
export interface RecycleSettings {
  intervalDays: number;
  maxTimes: number;
  jitterMinutes: number;
  until?: string;
}

/** The section's inputs as typed (strings, so a half-typed number stays as it is). */
export interface RecycleDraft {
  on: boolean;
  intervalDays: string;
  maxTimes: string;
  jitterMinutes: string;
  /** `datetime-local` in the user's zone; empty for no end date. */
  until: string;
}

export function recycleDraft(recycle: RecycleSettings | null | undefined, timezone: string): RecycleDraft {
  return {
    on: Boolean(recycle),
    intervalDays: String(recycle?.intervalDays ?? 30),
    maxTimes: String(recycle?.maxTimes ?? 3),
    jitterMinutes: String(recycle?.jitterMinutes ?? 60),
    until: recycle?.until ? utcToZonedInput(new Date(recycle.until), timezone) : '',
  };
}

/** The request's `recycle`: null when off; the server checks the limits and names a bad field. */
export function recycleBody(draft: RecycleDraft, timezone: string): RecycleSettings | null {
  if (!draft.on) return null;
  const until = draft.until ? zonedToUtc(draft.until, timezone) : undefined;
  return {
    intervalDays: Number(draft.intervalDays),
    maxTimes: Number(draft.maxTimes),
    jitterMinutes: Number(draft.jitterMinutes || 0),
    ...(until ? { until: until.toISOString() } : {}),
  };
}

/** "Repeat this post": evergreen recycling of the post after it posts, with the contract's limits. */
export function RecycleField({
  draft,
  timezone,
  onChange,
}: {
  draft: RecycleDraft;
  timezone: string;
  onChange: (draft: RecycleDraft) => void;
}) {
  const id = useId();
  const set = (patch: Partial<RecycleDraft>) => onChange({ ...draft, ...patch });
  const number = (
    name: 'intervalDays' | 'maxTimes' | 'jitterMinutes',
    label: string,
    min: number,
    max: number,
    hint: string,
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={`recycle.${name}`}
        type="number"
        inputMode="numeric"
        className="input"
        min={min}
        max={max}
        step={1}
        required
        value={draft[name]}
        aria-describedby={`${id}-${name}-hint`}
        onChange={(e) => set({ [name]: e.target.value })}
      />
      <p className="hint" id={`${id}-${name}-hint`}>
        {hint}
      </p>
    </div>
  );
  return (
    <fieldset className="recycle-field stack" aria-describedby={`${id}-about`}>
      <legend className="section-title">Repeat this post</legend>
      <label className="row" htmlFor={`${id}-on`}>
        <input
          id={`${id}-on`}
          type="checkbox"
          checked={draft.on}
          onChange={(e) => set({ on: e.target.checked })}
        />
        <span>Post it again later (evergreen)</span>
      </label>
      <p className="hint" id={`${id}-about`}>
        After it posts, a copy is scheduled again and again. An account that needs reconnecting, or whose
        platform refuses the copy as a duplicate, is left out; the post page says why.
      </p>
      {draft.on && (
        <div className="recycle-grid">
          {number('intervalDays', 'Every (days)', 7, 365, 'From 7 to 365 days after the last posting.')}
          {number(
            'maxTimes',
            'Times at most',
            1,
            52,
            'How many copies, 1 to 52 (the first posting not counted).',
          )}
          {number(
            'jitterMinutes',
            'Vary by (minutes)',
            0,
            240,
            'Each copy moves up to this many minutes earlier or later, 0 to 240, so repeats do not look automated.',
          )}
          <div className="field">
            <label htmlFor={`${id}-until`}>Until ({timezone}, optional)</label>
            <input
              id={`${id}-until`}
              name="recycle.until"
              type="datetime-local"
              className="input"
              value={draft.until}
              min={utcToZonedInput(new Date(), timezone)}
              aria-describedby={`${id}-until-hint`}
              onChange={(e) => set({ until: e.target.value })}
            />
            <p className="hint" id={`${id}-until-hint`}>
              No copy is scheduled after this time. Leave it empty to stop only at the number of times.
            </p>
          </div>
        </div>
      )}
    </fieldset>
  );
}
