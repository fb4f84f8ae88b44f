'use client';

import { recycleLimits } from '@postwave/shared/schemas/recycle-limits';
import { useId } from 'react';
import { FieldError, invalidProps } from '#components/field-error.tsx';
import type { ProblemIssue } from '#components/lib/api.ts';
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

type RecycleName = keyof RecycleDraft & ('intervalDays' | 'maxTimes' | 'jitterMinutes' | 'until');

/** What is wrong with each field, in words for the person typing (not the validator's). */
export type RecycleErrors = Partial<Record<RecycleName, string>>;

const labels = { intervalDays: 'Every', maxTimes: 'Times at most', jitterMinutes: 'Vary by' } as const;
const units = { intervalDays: ' days', maxTimes: '', jitterMinutes: ' minutes' } as const;

/** "Every: 7 to 365 days", from the server's own limits. */
const rangeSentence = (name: keyof typeof recycleLimits) =>
  `${labels[name]}: ${recycleLimits[name].min} to ${recycleLimits[name].max}${units[name]}, in whole numbers.`;

const untilPast = 'Until: choose a time in the future, or leave it empty.';

/** The same limits the server checks, before anything is sent; empty when all is well or off. */
export function recycleProblems(draft: RecycleDraft, timezone: string, now = Date.now()): RecycleErrors {
  if (!draft.on) return {};
  const errors: RecycleErrors = {};
  for (const name of ['intervalDays', 'maxTimes', 'jitterMinutes'] as const) {
    const raw = draft[name].trim();
    if (name === 'jitterMinutes' && raw === '') continue;
    const value = Number(raw);
    const { min, max } = recycleLimits[name];
    if (raw === '' || !Number.isInteger(value) || value < min || value > max)
      errors[name] = rangeSentence(name);
  }
  const until = draft.until ? zonedToUtc(draft.until, timezone) : undefined;
  if (draft.until && (!until || until.getTime() <= now)) errors.until = untilPast;
  return errors;
}

/** The server's `recycle.*` issues as the same sentences, on their fields; the rest stay as they are. */
export function recycleIssues(issues: readonly ProblemIssue[]): {
  errors: RecycleErrors;
  rest: ProblemIssue[];
} {
  const errors: RecycleErrors = {};
  const rest: ProblemIssue[] = [];
  for (const issue of issues) {
    const name = issue.path?.startsWith('recycle.') ? issue.path.slice('recycle.'.length) : undefined;
    if (name === 'until') errors.until = untilPast;
    else if (name === 'intervalDays' || name === 'maxTimes' || name === 'jitterMinutes')
      errors[name] = rangeSentence(name);
    else rest.push(issue);
  }
  return { errors, rest };
}

/** The request's `recycle`: null when off; recycleProblems checked it first, the server checks again. */
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
  errors = {},
  onChange,
}: {
  draft: RecycleDraft;
  timezone: string;
  /** Shown at their fields; from recycleProblems or recycleIssues. */
  errors?: RecycleErrors;
  onChange: (draft: RecycleDraft) => void;
}) {
  const id = useId();
  const set = (patch: Partial<RecycleDraft>) => onChange({ ...draft, ...patch });
  const number = (name: keyof typeof recycleLimits, label: string, hint: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={`recycle.${name}`}
        type="number"
        inputMode="numeric"
        className="input"
        min={recycleLimits[name].min}
        max={recycleLimits[name].max}
        step={1}
        required={name !== 'jitterMinutes'}
        value={draft[name]}
        {...invalidProps(`${id}-${name}-error`, errors[name], `${id}-${name}-hint`)}
        onChange={(e) => set({ [name]: e.target.value })}
      />
      <p className="hint" id={`${id}-${name}-hint`}>
        {hint}
      </p>
      <FieldError id={`${id}-${name}-error`}>{errors[name]}</FieldError>
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
          {number(
            'intervalDays',
            'Every (days)',
            `From ${recycleLimits.intervalDays.min} to ${recycleLimits.intervalDays.max} days after the last posting.`,
          )}
          {number(
            'maxTimes',
            'Times at most',
            `How many copies, ${recycleLimits.maxTimes.min} to ${recycleLimits.maxTimes.max} (the first posting not counted).`,
          )}
          {number(
            'jitterMinutes',
            'Vary by (minutes)',
            `Each copy moves up to this many minutes earlier or later, ${recycleLimits.jitterMinutes.min} to ${recycleLimits.jitterMinutes.max}, so repeats do not look automated.`,
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
              {...invalidProps(`${id}-until-error`, errors.until, `${id}-until-hint`)}
              onChange={(e) => set({ until: e.target.value })}
            />
            <p className="hint" id={`${id}-until-hint`}>
              No copy is scheduled after this time. Leave it empty to stop only at the number of times.
            </p>
            <FieldError id={`${id}-until-error`}>{errors.until}</FieldError>
          </div>
        </div>
      )}
    </fieldset>
  );
}
