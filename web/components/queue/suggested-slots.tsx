import type { SlotRow } from './week-slots.ts';
import { weekdays } from './week-slots.ts';

/** Best times of the account's own history, in `timezone` (weekday 1 = Monday … 7 = Sunday, as the queue's). */
export interface SuggestedSlots {
  timezone: string;
  slots: { weekday: number; hour: number }[];
}

/**
 * Up to three of the account's best times (docs/analytics.md#best-times) not yet among its slots,
 * each a button that adds it to the week grid; only offered when the queue counts time in the
 * zone the best times were counted in.
 */
export function SuggestedSlotButtons({
  suggested,
  timezone,
  rows,
  onAdd,
}: {
  suggested: SuggestedSlots | undefined;
  timezone: string;
  rows: readonly SlotRow[];
  onAdd: (slot: { weekday: number; time: string }) => void;
}) {
  if (!suggested || suggested.slots.length === 0) return null;
  const offered = suggested.slots
    .map((s) => ({ weekday: s.weekday, time: `${String(s.hour).padStart(2, '0')}:00` }))
    .filter((s) => !rows.some((r) => r.weekday === s.weekday && r.time === s.time))
    .slice(0, 3);
  return (
    <div className="small" data-testid="suggested-slots">
      {suggested.timezone === timezone ? (
        offered.length > 0 && (
          <>
            <p className="muted">Suggested from this account’s best times:</p>
            <ul className="row" style={{ listStyle: 'none', padding: 0, flexWrap: 'wrap' }}>
              {offered.map((s) => (
                <li key={`${s.weekday}@${s.time}`}>
                  <button type="button" className="btn btn-sm btn-ghost" onClick={() => onAdd(s)}>
                    Add {weekdays[s.weekday - 1]} {s.time}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )
      ) : (
        <p className="muted">
          Best times are counted in your time zone ({suggested.timezone}); set this queue to it to add them.
        </p>
      )}
    </div>
  );
}
