import type { Metadata } from 'next';
import Link from 'next/link';
import { formatTime, zonedDay, zonedToUtc } from '../../../components/lib/time.ts';
import { calendarEntries } from '../../../server/ui/calendar.ts';
import { requireUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Calendar' };

const dayMs = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const parseDay = (s: string) => new Date(`${s}T00:00:00Z`);
const dows = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Monday on or before a calendar day (dates as UTC midnights). */
function startOfWeek(d: Date): Date {
  return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * dayMs);
}

export default async function CalendarPage({
  searchParams,
}: {
  searchParams: Promise<{ view?: string; date?: string }>;
}) {
  const user = await requireUser();
  const tz = user.timezone;
  const params = await searchParams;
  const view = params.view === 'week' ? 'week' : 'month';
  const today = zonedDay(new Date(), tz);
  const anchor = /^\d{4}-\d{2}-\d{2}$/.test(params.date ?? '') ? parseDay(params.date!) : parseDay(today);
  if (Number.isNaN(anchor.getTime())) return null;

  let first: Date;
  let last: Date;
  let prev: Date;
  let next: Date;
  let title: string;
  if (view === 'week') {
    first = startOfWeek(anchor);
    last = new Date(first.getTime() + 6 * dayMs);
    prev = new Date(first.getTime() - 7 * dayMs);
    next = new Date(first.getTime() + 7 * dayMs);
    const fmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
    title = `${fmt.format(first)} – ${fmt.format(last)} ${last.getUTCFullYear()}`;
  } else {
    const monthStart = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), 1));
    const monthEnd = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 0));
    first = startOfWeek(monthStart);
    last = new Date(startOfWeek(monthEnd).getTime() + 6 * dayMs);
    prev = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - 1, 1));
    next = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 1));
    title = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      monthStart,
    );
  }
  const days: Date[] = [];
  for (let t = first.getTime(); t <= last.getTime(); t += dayMs) days.push(new Date(t));
  const from = zonedToUtc(`${iso(first)}T00:00`, tz)!;
  const to = zonedToUtc(`${iso(new Date(last.getTime() + dayMs))}T00:00`, tz)!;
  const entries = await calendarEntries(user.id, from, to);
  const byDay = Map.groupBy(entries, (e) => zonedDay(new Date(e.at), tz));
  const link = (v: string, d: Date) => `/calendar?view=${v}&date=${iso(d)}`;

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Calendar</h1>
          <p>Scheduled and published posts, in {tz}.</p>
        </div>
        <Link href="/compose" className="btn btn-primary">
          New post
        </Link>
      </div>
      <div className="cal-toolbar">
        <Link className="btn btn-sm" href={link(view, prev)} aria-label={`Previous ${view}`}>
          ←
        </Link>
        <Link className="btn btn-sm" href={link(view, parseDay(today))}>
          Today
        </Link>
        <Link className="btn btn-sm" href={link(view, next)} aria-label={`Next ${view}`}>
          →
        </Link>
        <h2 style={{ marginLeft: 8 }}>{title}</h2>
        <span className="spacer" />
        <nav className="segmented" aria-label="Calendar view">
          <Link href={link('week', anchor)} aria-current={view === 'week' ? 'page' : undefined}>
            Week
          </Link>
          <Link href={link('month', anchor)} aria-current={view === 'month' ? 'page' : undefined}>
            Month
          </Link>
        </nav>
      </div>
      <div className={`calendar ${view}`}>
        {dows.map((d) => (
          <div key={d} className="cal-dow" aria-hidden="true">
            {d}
          </div>
        ))}
        {days.map((d) => {
          const key = iso(d);
          const items = byDay.get(key) ?? [];
          const outside = view === 'month' && d.getUTCMonth() !== anchor.getUTCMonth();
          return (
            <div key={key} className="cal-day" data-outside={outside} data-today={key === today}>
              <h3 className="sr-only">
                {new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(d)}
              </h3>
              <span className="cal-date" aria-hidden="true">
                {d.getUTCDate()}
              </span>
              {items.map((e) => (
                <Link
                  key={e.id}
                  href={`/posts/${e.id}`}
                  className="cal-event"
                  data-status={e.status}
                  title={`${e.status}: ${e.message}`}
                >
                  {formatTime(e.at, tz)} {e.message.trim() || 'Media post'}
                </Link>
              ))}
            </div>
          );
        })}
      </div>
      {entries.length === 0 && (
        <p className="muted small" style={{ textAlign: 'center' }}>
          Nothing scheduled or published in this {view}.
        </p>
      )}
    </div>
  );
}
