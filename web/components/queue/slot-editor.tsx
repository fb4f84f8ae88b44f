'use client';

import { useId, useState } from 'react';
import { Icon } from '#components/icons.tsx';
import { ApiError, api, describeFormError } from '#components/lib/api.ts';
import { useFocusAfterRender } from '#components/lib/use-focus-after-render.ts';
import { TimeZoneField } from '#components/time-zone-field.tsx';
import type { QueueViewShape } from '#server/queue/schema.ts';
import { SuggestedSlotButtons, type SuggestedSlots } from './suggested-slots.tsx';
import {
  addTime,
  type CopyTarget,
  copyDay,
  newKey,
  removeSlot,
  type SlotRow,
  setTime,
  slotsOn,
  sortedSlots,
  weekdays,
} from './week-slots.ts';

export type { SuggestedSlots } from './suggested-slots.tsx';

/**
 * The rows of a queue's slots; a slot already shown keeps its row's key, so a save does not
 * remount its field (the focus, in the field Enter was pressed in, would fall to <body>).
 */
const rowsOf = (queue: QueueViewShape, shown: SlotRow[] = []): SlotRow[] => {
  const taken = new Set<number>();
  return queue.slots.map((s) => {
    const same = shown.find((r) => r.weekday === s.weekday && r.time === s.time && !taken.has(r.key));
    if (same) taken.add(same.key);
    return { key: same?.key ?? newKey(), ...s };
  });
};

/**
 * The weekly slots of one account as a week grid, days by times (issue 30): each day lists its
 * times, with a button to add one and one to remove each; "Copy" gives other days a day's times.
 * Saved with PUT, in day and time order.
 */
export function SlotEditor({
  accountId,
  accountName,
  queue,
  zones,
  suggested,
  onSaved,
}: {
  accountId: string;
  accountName: string;
  queue: QueueViewShape;
  zones: string[];
  /** The account's best times, offered as slots. */
  suggested?: SuggestedSlots;
  onSaved: (queue: QueueViewShape) => void;
}) {
  const id = useId();
  const [timezone, setTimezone] = useState(queue.timezone);
  const [rows, setRows] = useState(() => rowsOf(queue));
  const [copyFrom, setCopyFrom] = useState(1);
  const [copyTo, setCopyTo] = useState<CopyTarget>('weekdays');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const sent = sortedSlots(rows);
  const focusAfterRender = useFocusAfterRender();
  const timeId = (key: number) => `${id}-time-${key}`;
  const addId = (weekday: number) => `${id}-add-${weekday}`;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(undefined);
    setFieldErrors({});
    setStatus('');
    try {
      const saved = await api<QueueViewShape>('PUT', `/api/v1/accounts/${accountId}/queue`, {
        timezone,
        slots: sent.map(({ weekday, time }) => ({ weekday, time })),
      });
      onSaved(saved);
      setRows(rowsOf(saved, rows));
      setStatus(`Saved ${saved.slots.length} slot${saved.slots.length === 1 ? '' : 's'} for ${accountName}.`);
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        setFieldErrors(Object.fromEntries(e.errors.map((issue) => [issue.path ?? '', issue.message])));
      }
      // The zone's and each time's issues show beside them; the summary names only the others.
      setError(
        describeFormError(
          e,
          (path) => path === 'timezone' || /^slots\[\d+\]\.(time|weekday)$/.test(path ?? ''),
        ),
      );
    } finally {
      setSaving(false);
    }
  }

  const errorFor = (path: string) => fieldErrors[path];
  const slotError = (row: SlotRow) => {
    const i = sent.findIndex((r) => r.key === row.key);
    return errorFor(`slots[${i}].time`) ?? errorFor(`slots[${i}].weekday`);
  };
  return (
    <form className="slot-editor" onSubmit={save} aria-labelledby={`${id}-title`}>
      <h3 className="queue-subhead" id={`${id}-title`}>
        Posting slots<span className="sr-only"> of {accountName}</span>
      </h3>
      <TimeZoneField
        id={`${id}-zone`}
        zones={zones}
        value={timezone}
        onChange={setTimezone}
        error={errorFor('timezone')}
      />
      {rows.length === 0 && (
        <p className="muted small">No slots yet: add the times this account should post at.</p>
      )}
      <div className="week-grid" data-testid="week-grid">
        {weekdays.map((day, d) => {
          const weekday = d + 1;
          const times = slotsOn(rows, weekday);
          return (
            <fieldset key={day} className="week-day" data-weekday={weekday}>
              <legend>
                <span className="week-day-long">{day}</span>
                <span className="week-day-short" aria-hidden="true">
                  {day.slice(0, 3)}
                </span>
              </legend>
              <ul className="week-times">
                {times.map((row, i) => {
                  const problem = slotError(row);
                  return (
                    <li key={row.key}>
                      <input
                        id={timeId(row.key)}
                        type="time"
                        className="input"
                        aria-label={`${day} time ${i + 1}`}
                        value={row.time}
                        required
                        onChange={(e) => setRows((current) => setTime(current, row.key, e.target.value))}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={problem ? `${id}-slot-${row.key}-error` : undefined}
                      />
                      <button
                        type="button"
                        className="btn btn-ghost btn-icon"
                        aria-label={`Remove ${day} ${row.time}`}
                        onClick={() => {
                          setRows((current) => removeSlot(current, row.key));
                          // This button goes with its time: the day's Add button takes the focus.
                          focusAfterRender(addId(weekday));
                        }}
                      >
                        <Icon name="close" size={14} />
                      </button>
                      {problem && (
                        <p className="field-error" id={`${id}-slot-${row.key}-error`}>
                          {problem}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
              <button
                type="button"
                className="btn btn-sm week-add"
                id={addId(weekday)}
                aria-label={`Add a time on ${day}`}
                onClick={() => {
                  const next = addTime(rows, weekday);
                  const added = next.find((r) => !rows.includes(r));
                  setRows(next);
                  // The new time field takes the focus, ready to be typed into.
                  if (added) focusAfterRender(timeId(added.key));
                }}
              >
                <Icon name="plus" size={14} /> Add
              </button>
            </fieldset>
          );
        })}
      </div>
      <SuggestedSlotButtons
        suggested={suggested}
        timezone={timezone}
        rows={rows}
        onAdd={(slot) => setRows((current) => [...current, { key: newKey(), ...slot }])}
      />
      <div className="week-copy">
        <label htmlFor={`${id}-copy-from`}>Copy</label>
        <select
          id={`${id}-copy-from`}
          className="select"
          value={copyFrom}
          onChange={(e) => setCopyFrom(Number(e.target.value))}
        >
          {weekdays.map((d, w) => (
            <option key={d} value={w + 1}>
              {d}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-copy-to`}>to</label>
        <select
          id={`${id}-copy-to`}
          className="select"
          value={copyTo}
          onChange={(e) => setCopyTo(e.target.value as CopyTarget)}
        >
          <option value="weekdays">the other weekdays</option>
          <option value="weekend">the weekend</option>
          <option value="all">every other day</option>
          {weekdays.map((d, w) => (
            <option key={d} value={String(w + 1)}>
              {d}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => {
            setRows((current) => copyDay(current, copyFrom, copyTo));
            setStatus(`Copied ${weekdays[copyFrom - 1]}’s times. Save to keep them.`);
          }}
        >
          Copy times
        </button>
      </div>
      <div className="slot-editor-actions">
        {/* aria-disabled, not disabled: the pressed button keeps the focus while it saves. */}
        <button type="submit" className="btn btn-sm btn-primary" aria-disabled={saving}>
          {saving ? 'Saving…' : 'Save slots'}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <p className="small muted" role="status" aria-live="polite">
        {status}
      </p>
    </form>
  );
}
