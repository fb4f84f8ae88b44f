'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { PlatformMark } from '#components/account-avatar.tsx';
import { Icon } from '#components/icons.tsx';
import { api, describeError, isPastTime } from '#components/lib/api.ts';
import {
  formatDay,
  formatSpoken,
  formatTime,
  utcToZonedInput,
  zonedDay,
  zonedToUtc,
} from '#components/lib/time.ts';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { statusLabel } from '#components/posts/status.tsx';
import type { CalendarEntry } from '#server/ui/schema.ts';

export interface CalendarAccount {
  id: string;
  platform: string;
  name: string;
  /** Why the account cannot post right now (from its health), if it cannot. */
  trouble: string | undefined;
}

const dows = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const dayMs = 86_400_000;
const hourMs = 3_600_000;

/** Said once, at the post, when a move would put it in the past (here or by the server). */
const pastDay = 'That day has passed: choose today or later.';
const pastTime = 'That time has passed: choose a later time.';

const shortMessage = (e: CalendarEntry) => {
  const text = e.message.trim() || 'Media post';
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/** The same wall-clock time of day on another local day: a move keeps the post's time. */
function sameTimeOn(at: string, day: string, timeZone: string): Date | undefined {
  const time = utcToZonedInput(new Date(at), timeZone).slice(11);
  return zonedToUtc(`${day}T${time}`, timeZone);
}

interface Moving {
  id: string;
  /** The instant the post would move to; shown on its target day until Enter or Escape. */
  target: Date;
}

/**
 * Week or month grid of posts. A scheduled post moves by pointer (drag it onto another day) or by
 * keyboard (its Move button, arrow keys, Enter to drop, Escape to cancel); every step is announced.
 * Both keep the post's time of day and save through `PATCH /api/v1/posts/{id}` `scheduledAt`.
 */
export function CalendarGrid({
  view,
  days,
  month,
  today,
  timeZone,
  entries,
  accounts,
}: {
  view: 'week' | 'month';
  days: string[];
  month: number;
  today: string;
  timeZone: string;
  entries: CalendarEntry[];
  accounts: CalendarAccount[];
}) {
  const router = useRouter();
  const { locale } = useTimeSettings();
  const [moving, setMoving] = useState<Moving>();
  const [dropDay, setDropDay] = useState<string>();
  const [announcement, setAnnouncement] = useState('');
  /** Why the last move of a post was refused, shown at that post. */
  const [refusal, setRefusal] = useState<{ id: string; message: string }>();
  const [saving, setSaving] = useState(false);
  const focusAfterRefresh = useRef<{ id: string; day: string }>(undefined);
  const grid = useRef<HTMLDivElement>(null);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const byDay = Map.groupBy(entries, (e) => zonedDay(new Date(e.at), timeZone));
  const targetDay = moving ? zonedDay(moving.target, timeZone) : dropDay;

  // After a move the post sits in another day's cell once the refreshed page arrives: then give
  // its Move button the focus back (not earlier, while it still shows in the old cell).
  useEffect(() => {
    const pending = focusAfterRefresh.current;
    if (!pending) return;
    const button = grid.current?.querySelector<HTMLButtonElement>(
      `.cal-day[data-day="${pending.day}"] [data-event-id="${pending.id}"] .cal-move:not(:disabled)`,
    );
    if (button) {
      focusAfterRefresh.current = undefined;
      button.focus();
    }
  });

  const describe = (when: Date) => formatSpoken(when, timeZone, locale);

  async function reschedule(entry: CalendarEntry, when: Date) {
    if (when.getTime() === new Date(entry.at).getTime()) {
      setAnnouncement(`“${shortMessage(entry)}” stays on ${describe(when)}.`);
      return;
    }
    // A past day or time is refused here, before a request: the post and its Move button stay
    // where they are, so the focus does too.
    const day = zonedDay(when, timeZone);
    if (day < today || when.getTime() <= Date.now()) {
      setRefusal({ id: entry.id, message: day < today ? pastDay : pastTime });
      setAnnouncement('');
      return;
    }
    setSaving(true);
    setRefusal(undefined);
    try {
      await api('PATCH', `/api/v1/posts/${entry.id}`, { scheduledAt: when.toISOString() });
      setAnnouncement(`Rescheduled “${shortMessage(entry)}” to ${describe(when)}.`);
      focusAfterRefresh.current = { id: entry.id, day };
      router.refresh();
    } catch (e) {
      // The alert at the post says it; the status region stays quiet so it is not read twice.
      setRefusal({
        id: entry.id,
        message: isPastTime(e) ? pastTime : `Could not move it: ${describeError(e)}`,
      });
      setAnnouncement('');
      // Saving disabled the Move button, which lost the focus: give it back once enabled.
      focusAfterRefresh.current = { id: entry.id, day: zonedDay(new Date(entry.at), timeZone) };
    } finally {
      setSaving(false);
    }
  }

  function onMoveKey(event: KeyboardEvent<HTMLButtonElement>, entry: CalendarEntry) {
    if (!moving || moving.id !== entry.id) return;
    const steps: Record<string, number> =
      view === 'week'
        ? { ArrowLeft: -dayMs, ArrowRight: dayMs, ArrowUp: -hourMs, ArrowDown: hourMs }
        : { ArrowLeft: -dayMs, ArrowRight: dayMs, ArrowUp: -7 * dayMs, ArrowDown: 7 * dayMs };
    const step = steps[event.key];
    if (step !== undefined) {
      event.preventDefault();
      // Whole days keep the wall-clock time across a daylight-saving change; hours are plain hours.
      const target =
        Math.abs(step) >= dayMs
          ? sameTimeOn(
              moving.target.toISOString(),
              zonedDay(new Date(moving.target.getTime() + step), timeZone),
              timeZone,
            )
          : new Date(moving.target.getTime() + step);
      if (!target) return;
      setMoving({ id: entry.id, target });
      setAnnouncement(`${describe(target)}. Enter to move here, Escape to cancel.`);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setMoving(undefined);
      setAnnouncement(`Move cancelled; “${shortMessage(entry)}” stays on ${describe(new Date(entry.at))}.`);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const target = moving.target;
      setMoving(undefined);
      void reschedule(entry, target);
    }
  }

  function startMove(entry: CalendarEntry) {
    if (moving?.id === entry.id) return;
    setRefusal(undefined);
    const target = new Date(entry.at);
    setMoving({ id: entry.id, target });
    setAnnouncement(
      `Moving “${shortMessage(entry)}”, now ${describe(target)}. Arrow keys choose the ${
        view === 'week' ? 'day (left, right) and hour (up, down)' : 'day (left, right) and week (up, down)'
      }; Enter to move, Escape to cancel.`,
    );
  }

  function onDrop(day: string, postId: string) {
    setDropDay(undefined);
    const entry = entries.find((e) => e.id === postId);
    if (entry?.status !== 'scheduled') return;
    const when = sameTimeOn(entry.at, day, timeZone);
    if (when) void reschedule(entry, when);
  }

  return (
    <>
      <p id="cal-move-help" className="sr-only">
        Scheduled posts have a Move button: press it, use the arrow keys to choose a new day, then Enter. With
        a pointer, drag a scheduled post onto another day.
      </p>
      <div className={`calendar ${view}`} ref={grid} aria-busy={saving}>
        {dows.map((d) => (
          <div key={d} className="cal-dow" aria-hidden="true">
            {d}
          </div>
        ))}
        {days.map((day) => {
          const items = byDay.get(day) ?? [];
          const outside = view === 'month' && new Date(`${day}T00:00:00Z`).getUTCMonth() !== month;
          return (
            // biome-ignore lint/a11y/noStaticElementInteractions: a pointer drop target; the keyboard path is each post's Move button
            <div
              key={day}
              className="cal-day"
              data-day={day}
              data-outside={outside}
              data-today={day === today}
              data-drop-target={targetDay === day ? 'true' : undefined}
              onDragOver={(e) => {
                if (!e.dataTransfer.types.includes('application/x-postwave-post')) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                if (dropDay !== day) setDropDay(day);
              }}
              onDragLeave={(e) => {
                if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropDay(undefined);
              }}
              onDrop={(e) => {
                e.preventDefault();
                onDrop(day, e.dataTransfer.getData('application/x-postwave-post'));
              }}
            >
              <h3 className="sr-only">{formatDay(day, 'full', locale)}</h3>
              <span className="cal-date" aria-hidden="true">
                {Number(day.slice(8))}
              </span>
              {items.map((e) => {
                const trouble = stillToGo(e)
                  ? e.accountIds
                      .map((id) => byId.get(id))
                      .filter((a): a is CalendarAccount => Boolean(a?.trouble))
                  : [];
                const names = e.accountIds.map((id) => byId.get(id)?.name ?? 'a disconnected account');
                const movable = e.status === 'scheduled';
                const isMoving = moving?.id === e.id;
                const refused = refusal?.id === e.id ? refusal.message : undefined;
                const refusedId = `cal-refused-${e.id}`;
                return (
                  // biome-ignore lint/a11y/noStaticElementInteractions: dragging is the pointer path; the Move button is the keyboard one
                  <div
                    key={e.id}
                    className="cal-event"
                    data-event-id={e.id}
                    data-status={e.status}
                    data-trouble={trouble.length || e.risk ? 'true' : undefined}
                    data-moving={isMoving ? 'true' : undefined}
                    draggable={movable && !saving}
                    onDragStart={(ev) => {
                      ev.dataTransfer.setData('application/x-postwave-post', e.id);
                      ev.dataTransfer.effectAllowed = 'move';
                    }}
                    onDragEnd={() => setDropDay(undefined)}
                  >
                    <span className="cal-marks" aria-hidden="true">
                      {e.accountIds.map((id) => {
                        const account = byId.get(id);
                        return account ? <PlatformMark key={id} platform={account.platform} /> : null;
                      })}
                    </span>
                    <Link
                      href={`/posts/${e.id}`}
                      className="cal-event-link"
                      title={`${statusLabel(e.status)}: ${e.message}`}
                    >
                      <span className="cal-event-time">{formatTime(e.at, timeZone, locale)}</span>{' '}
                      {shortMessage(e)}
                      <span className="sr-only">
                        {' '}
                        ({statusLabel(e.status).toLowerCase()}, {names.join(', ')})
                      </span>
                    </Link>
                    {(trouble.length > 0 || e.risk) && (
                      <span
                        className="cal-trouble"
                        role="img"
                        aria-label={troubleNote(trouble, e.risk)}
                        title={troubleNote(trouble, e.risk)}
                      >
                        !
                      </span>
                    )}
                    {movable && (
                      <button
                        type="button"
                        className="cal-move"
                        aria-label={`Move “${shortMessage(e)}”`}
                        aria-describedby={refused ? `cal-move-help ${refusedId}` : 'cal-move-help'}
                        aria-pressed={isMoving}
                        disabled={saving}
                        onClick={() => startMove(e)}
                        onKeyDown={(ev) => onMoveKey(ev, e)}
                        onBlur={() => {
                          if (isMoving) setMoving(undefined);
                        }}
                      >
                        <Icon name="move" size={16} />
                      </button>
                    )}
                    {refused && (
                      <p className="cal-event-error field-error" id={refusedId} role="alert">
                        {refused}
                      </p>
                    )}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
      <p className="sr-only" role="status" aria-live="assertive">
        {announcement}
      </p>
    </>
  );
}

/**
 * Whether a post is still to be published (scheduled, queued or waiting for approval): only those
 * are flagged for an account's trouble; a post that went out or failed already is past helping.
 */
const stillToGo = (e: CalendarEntry) => e.status === 'scheduled' || e.status === 'pending_approval';

/** Why an entry is flagged: its accounts' health, and what the pre-flight check found. */
function troubleNote(trouble: readonly CalendarAccount[], risk: string | undefined): string {
  return [
    ...trouble.map((a) => `${a.name} ${a.trouble}`),
    ...(risk ? [`Pre-flight check: ${risk}`] : []),
  ].join('; ');
}
