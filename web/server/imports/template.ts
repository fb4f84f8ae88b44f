import { formatCsv } from '@postwave/shared';
import { type AccountRow, accountsOf } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import { getUser } from '#server/users/get-user.ts';
import { utcToZonedInput, zonedToUtc } from '../../components/lib/time.ts';
import { templateColumns } from './template-columns.ts';

/** How the template names an account: its handle, or `<platform>:<handle>` when two platforms share it. */
function reference(account: AccountRow, all: AccountRow[]): string {
  const handle = account.username
    ? account.username.startsWith('@') || account.username.includes('.')
      ? account.username
      : `@${account.username}`
    : account.platformAccountId;
  const bare = (h: string) => h.replace(/^@/, '').toLowerCase();
  const shared = all.some(
    (a) =>
      a !== account && [a.username, a.platformAccountId].some((h) => h !== null && bare(h) === bare(handle)),
  );
  return shared ? `${account.platform}:${handle}` : handle;
}

/** `2026-12-01T09:30:00+01:00`: 09:30 on the day after `now`, in the person's zone, with its offset. */
function tomorrowAt(now: Date, timeZone: string, hour: string): string {
  const day = utcToZonedInput(new Date(now.getTime() + 86_400_000), timeZone).slice(0, 10);
  const wall = `${day}T${hour}`;
  const instant = zonedToUtc(wall, timeZone)!;
  const offsetMinutes = Math.round((Date.parse(`${wall}:00Z`) - instant.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${wall}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A CSV to start an import from (issue 30): the usual columns and rows that import as they are for
 * this person, naming their own accounts by handle, a time tomorrow in their zone (with the offset
 * written out), a draft and a thread. Media is left empty: a URL there must be one the server can
 * fetch (docs/import-export.md#media-urls).
 */
export function importTemplate(accounts: AccountRow[], timeZone: string, now = new Date()): string {
  const refs = accounts.slice(0, 2).map((a) => reference(a, accounts));
  const accountsCell = refs.length ? refs.join('|') : '@your-handle';
  const first = refs[0] ?? '@your-handle';
  const rows = [
    [
      tomorrowAt(now, timeZone, '09:30'),
      'schedule',
      'Scheduled for tomorrow morning, to every account in the accounts column',
      accountsCell,
      '',
      '',
      '',
    ],
    [
      tomorrowAt(now, timeZone, '17:00'),
      'schedule',
      'A thread: this is the first message',
      first,
      '',
      '',
      'And this is the second one (thread.2, thread.3… add more)',
    ],
    [
      '',
      'draft',
      'A draft to finish later in the app, with "quotes", commas and\na line break',
      first,
      '',
      '',
      '',
    ],
  ];
  // The one CSV writer (docs/import-export.md#csv-safety): a handle cell starting with `@` is
  // written `'@news`, which a spreadsheet shows as text rather than running as a formula, and
  // which the import reads back as `@news`.
  return formatCsv(rows, templateColumns);
}

/** The template for one member: the workspace's accounts, their time zone. */
export async function importTemplateFor(
  ctx: AppContext,
  workspaceId: string,
  userId: string,
): Promise<string> {
  const [accounts, user] = await Promise.all([accountsOf(ctx, workspaceId), getUser(ctx, userId)]);
  return importTemplate(accounts, user?.timezone ?? 'UTC');
}
