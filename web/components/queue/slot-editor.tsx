'use client';

import { useId, useState } from 'react';
import { ApiError, api, describeError } from '#components/lib/api.ts';
import type { QueueViewShape } from '#server/queue/schema.ts';

const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

interface SlotRow {
  key: number;
  weekday: number;
  time: string;
}

/** Best times of the account's own history, in `timezone` (weekday 0 = Sunday). */
export interface SuggestedSlots {
  timezone: string;
  slots: { weekday: number; hour: number }[];
}

let nextKey = 1;
const rowsOf = (queue: QueueViewShape): SlotRow[] => queue.slots.map((s) => ({ key: nextKey++, ...s }));

/** The weekly slots of one account: weekday and time rows, the zone, saved with PUT. */
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
  suggested?: SuggestedSlots;
  onSaved: (queue: QueueViewShape) => void;
}) {
  const id = useId();
  const [timezone, setTimezone] = useState(queue.timezone);
  const [rows, setRows] = useState(() => rowsOf(queue));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const update = (key: number, change: Partial<SlotRow>) =>
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...change } : r)));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    setFieldErrors({});
    setStatus('');
    try {
      const saved = await api<QueueViewShape>('PUT', `/api/v1/accounts/${accountId}/queue`, {
        timezone,
        slots: rows.map(({ weekday, time }) => ({ weekday, time })),
      });
      onSaved(saved);
      setRows(rowsOf(saved));
      setStatus(`Saved ${saved.slots.length} slot${saved.slots.length === 1 ? '' : 's'} for ${accountName}.`);
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        setFieldErrors(Object.fromEntries(e.errors.map((issue) => [issue.path ?? '', issue.message])));
      }
      setError(describeError(e));
    } finally {
      setSaving(false);
    }
  }

  const errorFor = (path: string) => fieldErrors[path];
  // Queue weekdays run 1 (Monday) to 7 (Sunday); best times count 0 (Sunday) to 6.
  const offered = (suggested?.slots ?? [])
    .map((s) => ({ weekday: s.weekday === 0 ? 7 : s.weekday, time: `${String(s.hour).padStart(2, '0')}:00` }))
    .filter((s) => !rows.some((r) => r.weekday === s.weekday && r.time === s.time))
    .slice(0, 3);
  return (
    <form className="slot-editor" onSubmit={save} aria-labelledby={`${id}-title`}>
      <h3 className="queue-subhead" id={`${id}-title`}>
        Posting slots
      </h3>
      <div className="field">
        <label htmlFor={`${id}-zone`}>Time zone</label>
        <select
          id={`${id}-zone`}
          className="select"
          value={timezone}
          onChange={(e) => setTimezone(e.target.value)}
          aria-invalid={errorFor('timezone') ? true : undefined}
          aria-describedby={errorFor('timezone') ? `${id}-zone-error` : undefined}
        >
          {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        {errorFor('timezone') && (
          <p className="field-error" id={`${id}-zone-error`}>
            {errorFor('timezone')}
          </p>
        )}
      </div>
      {rows.length === 0 && (
        <p className="muted small">No slots yet: add the times this account should post at.</p>
      )}
      <ul className="slot-rows">
        {rows.map((row, i) => {
          const timeError = errorFor(`slots[${i}].time`);
          const dayError = errorFor(`slots[${i}].weekday`);
          return (
            <li key={row.key} className="slot-row">
              <select
                className="select"
                aria-label={`Slot ${i + 1} weekday`}
                value={row.weekday}
                onChange={(e) => update(row.key, { weekday: Number(e.target.value) })}
                aria-invalid={dayError ? true : undefined}
              >
                {weekdays.map((d, w) => (
                  <option key={d} value={w + 1}>
                    {d}
                  </option>
                ))}
              </select>
              <input
                type="time"
                className="input"
                aria-label={`Slot ${i + 1} time`}
                value={row.time}
                required
                onChange={(e) => update(row.key, { time: e.target.value })}
                aria-invalid={timeError ? true : undefined}
                aria-describedby={timeError ? `${id}-slot-${i}-error` : undefined}
              />
              <button
                type="button"
                className="btn btn-sm btn-ghost"
                aria-label={`Remove slot ${i + 1}`}
                onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
              >
                Remove
              </button>
              {(timeError || dayError) && (
                <p className="field-error" id={`${id}-slot-${i}-error`}>
                  {timeError ?? dayError}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      {suggested && suggested.slots.length > 0 && (
        <div className="small" data-testid="suggested-slots">
          {suggested.timezone === timezone ? (
            offered.length > 0 && (
              <>
                <p className="muted">Suggested from this account’s best times:</p>
                <ul className="row" style={{ listStyle: 'none', padding: 0, flexWrap: 'wrap' }}>
                  {offered.map((s) => (
                    <li key={`${s.weekday}@${s.time}`}>
                      <button
                        type="button"
                        className="btn btn-sm btn-ghost"
                        onClick={() => setRows((current) => [...current, { key: nextKey++, ...s }])}
                      >
                        Add {weekdays[s.weekday - 1]} {s.time}
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )
          ) : (
            <p className="muted">
              Best times are counted in your time zone ({suggested.timezone}); set this queue to it to add
              them.
            </p>
          )}
        </div>
      )}
      <div className="slot-editor-actions">
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            setRows((current) => [
              ...current,
              {
                key: nextKey++,
                weekday: current.at(-1)?.weekday ?? 1,
                time: current.at(-1)?.time ?? '09:00',
              },
            ])
          }
        >
          Add slot
        </button>
        <button type="submit" className="btn btn-sm btn-primary" disabled={saving}>
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
