import { isCalendarDay } from '@postwave/shared/analytics/calendar-day';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Icon } from '#components/icons.tsx';
import { accountTrouble } from '../../../components/calendar/account-health.ts';
import { type CalendarAccount, CalendarGrid } from '../../../components/calendar/calendar-grid.tsx';
import { accountName } from '../../../components/lib/platforms.ts';
import { formatDay, zonedDay, zonedToUtc } from '../../../components/lib/time.ts';
import { statusLabel } from '../../../components/posts/status.tsx';
import { listAccounts } from '../../../server/accounts/list-accounts.ts';
import { getContext } from '../../../server/context.ts';
import { calendarEntries } from '../../../server/ui/calendar.ts';
import { requestLocale } from '../../../server/ui/locale.ts';
import { requireUser } from '../../../server/ui/session.ts';
import '../../../components/calendar/calendar.css';

export const metadata: Metadata = { title: 'Calendar' };

const dayMs = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const parseDay = (s: string) => new Date(`${s}T00:00:00Z`);
// Drafts have no time on the calendar; a post waiting for approval shows at its requested time.
const statuses = ['scheduled', 'pending_approval', 'posted', 'failed'] as const;

/** Monday on or before a calendar day (dates as UTC midnights). */
function startOfWeek(d: Date): Date {
  return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * dayMs);
}

export default async function CalendarPage({
  searchParams,
}: {
  searchParams: Promise<{ view?: string; date?: string; account?: string; status?: string }>;
}) {
  const user = await requireUser();
  const tz = user.timezone;
  const locale = await requestLocale();
  const params = await searchParams;
  const view = params.view === 'week' ? 'week' : 'month';
  const today = zonedDay(new Date(), tz);
  // A day the calendar does not have (`2026-99-99`, an edited address) shows today, as none does.
  const anchor = isCalendarDay(String(params.date ?? '')) ? parseDay(String(params.date)) : parseDay(today);

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
    title = `${formatDay(iso(first), 'dayMonth', locale)} – ${formatDay(iso(last), 'dayMonth', locale)} ${last.getUTCFullYear()}`;
  } else {
    const monthStart = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), 1));
    const monthEnd = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 0));
    first = startOfWeek(monthStart);
    last = new Date(startOfWeek(monthEnd).getTime() + 6 * dayMs);
    prev = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - 1, 1));
    next = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 1));
    title = formatDay(iso(monthStart), 'monthYear', locale);
  }
  const days: string[] = [];
  for (let t = first.getTime(); t <= last.getTime(); t += dayMs) days.push(iso(new Date(t)));
  const from = zonedToUtc(`${iso(first)}T00:00`, tz)!;
  const to = zonedToUtc(`${iso(new Date(last.getTime() + dayMs))}T00:00`, tz)!;

  const ctx = await getContext();
  const accountViews = await listAccounts(ctx, user.workspaceId);
  const accounts: CalendarAccount[] = accountViews.map((a) => ({
    id: a.id,
    platform: a.platform,
    name: accountName(a),
    // `health` arrives with the account health work; until then the account status stands in.
    trouble: accountTrouble(a as typeof a & { health?: string }),
  }));
  const accountFilter = accounts.some((a) => a.id === params.account) ? params.account : undefined;
  const statusFilter = (statuses as readonly string[]).includes(params.status ?? '')
    ? params.status
    : undefined;
  const entries = (await calendarEntries(user.workspaceId, from, to)).filter(
    (e) =>
      (!accountFilter || e.accountIds.includes(accountFilter)) &&
      (!statusFilter || e.status === statusFilter),
  );

  const query = (v: string, d: Date) => {
    const q = new URLSearchParams({ view: v, date: iso(d) });
    if (accountFilter) q.set('account', accountFilter);
    if (statusFilter) q.set('status', statusFilter);
    return `/calendar?${q}`;
  };

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
        <Link className="btn btn-sm" href={query(view, prev)} aria-label={`Previous ${view}`}>
          <Icon name="arrowLeft" size={16} />
        </Link>
        <Link className="btn btn-sm" href={query(view, parseDay(today))}>
          Today
        </Link>
        <Link className="btn btn-sm" href={query(view, next)} aria-label={`Next ${view}`}>
          <Icon name="arrowRight" size={16} />
        </Link>
        <h2 style={{ marginLeft: 8 }}>{title}</h2>
        <span className="spacer" />
        <nav className="segmented" aria-label="Calendar view">
          <Link href={query('week', anchor)} aria-current={view === 'week' ? 'page' : undefined}>
            Week
          </Link>
          <Link href={query('month', anchor)} aria-current={view === 'month' ? 'page' : undefined}>
            Month
          </Link>
        </nav>
      </div>
      <form className="cal-filters" method="get" action="/calendar" aria-label="Filter posts">
        <input type="hidden" name="view" value={view} />
        <input type="hidden" name="date" value={iso(anchor)} />
        <label>
          <span>Account</span>
          <select name="account" className="select" defaultValue={accountFilter ?? ''}>
            <option value="">All accounts</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Status</span>
          <select name="status" className="select" defaultValue={statusFilter ?? ''}>
            <option value="">All statuses</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-sm">
          Filter
        </button>
      </form>
      <CalendarGrid
        key={`${view}-${iso(anchor)}-${accountFilter ?? ''}-${statusFilter ?? ''}`}
        view={view}
        days={days}
        month={anchor.getUTCMonth()}
        today={today}
        timeZone={tz}
        entries={entries}
        accounts={accounts}
      />
      {entries.length === 0 && (
        <p className="muted small" style={{ textAlign: 'center' }}>
          Nothing {statusFilter ? statusLabel(statusFilter).toLowerCase() : 'scheduled or published'} in this{' '}
          {view}
          {accountFilter ? ' for this account' : ''}.
        </p>
      )}
    </div>
  );
}
