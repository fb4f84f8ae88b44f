import type { QueueSettings, QueueSlot } from '@postwave/shared';
import { type Context, type OptionSpecs, siblingOption, UsageError, unexpectedArgument } from '../command.ts';
import { preview } from '../format.ts';
import { QueueView } from '../responses.ts';

export const summary = "show or set an account's posting slots";
export const synopsis = [
  ['queue show <account>', "an account's posting slots, queued posts and next free slots"],
  ['queue set <account>', "replace an account's posting slots (--slot, --timezone)"],
] as const;

export const help = `Usage: postwave queue <show|set> <account id>
  postwave queue show <account> [--json]
  postwave queue set <account> [--timezone <IANA zone>] [--slot <days>@<HH:MM> ...] [--json]

A queue is an account's weekly posting slots in a time zone; postwave post --queue takes
the next slot that is free in every target account's queue.

  --slot <days>@<HH:MM>  repeatable; days are mon..sun (comma-separated), 1..7 (Monday
                         is 1), weekdays, weekends or daily. No --slot clears the queue.
  --timezone <zone>      IANA zone, e.g. Europe/Berlin (default: the queue's current zone)

Example: postwave queue set 5f0c... --timezone Europe/Berlin --slot weekdays@09:00 --slot mon,thu@17:30
`;

export const options = {
  slot: { type: 'string', multiple: true, summary: 'days@HH:MM', value: { name: 'slot' } },
  timezone: { type: 'string', summary: 'IANA zone', value: { name: 'zone' } },
} as const satisfies OptionSpecs;

export const positional = { kind: 'subcommand', words: ['show', 'set'] } as const;

export async function run({ values, args, api, print }: Context<typeof options>): Promise<number> {
  const [sub, accountId, ...extra] = args;
  if (extra.length) throw unexpectedArgument('queue', extra[0]!);
  if (!accountId || (sub !== 'show' && sub !== 'set')) throw new UsageError(help);
  const setOnly = (['slot', 'timezone'] as const).find((o) => values[o] !== undefined);
  if (sub === 'show' && setOnly) throw siblingOption('queue', sub, setOnly, 'set');
  const client = api();
  const path = `/api/v1/accounts/${encodeURIComponent(accountId)}/queue`;
  if (sub === 'show') {
    const queue = await client.request('GET', path, QueueView);
    print(queue, describeQueue(queue));
    return 0;
  }
  const slots = (values.slot ?? []).flatMap(parseSlots);
  const timezone = values.timezone ?? (await client.request('GET', path, QueueView)).timezone;
  const settings: QueueSettings = { timezone, slots };
  const queue = await client.request('PUT', path, QueueView, settings);
  print(queue, describeQueue(queue));
  return 0;
}

const dayNames = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const dayGroups: Record<string, number[]> = {
  daily: [1, 2, 3, 4, 5, 6, 7],
  weekdays: [1, 2, 3, 4, 5],
  weekends: [6, 7],
};

/** `mon,thu@09:00`, `weekdays@17:30`, `7@10:00`: the slots one --slot names. */
export function parseSlots(spec: string): QueueSlot[] {
  const [days, time, ...extra] = spec.split('@');
  if (!days || !time || extra.length)
    throw new UsageError(`--slot "${spec}": use <days>@<HH:MM>, e.g. mon,thu@09:00 or weekdays@17:30`);
  const weekdays = days.split(',').flatMap((raw) => {
    const day = raw.trim().toLowerCase();
    if (dayGroups[day]) return dayGroups[day]!;
    const named = dayNames.indexOf(day.slice(0, 3));
    if (named >= 0 && dayNames.some((n) => day.startsWith(n))) return [named + 1];
    if (/^[1-7]$/.test(day)) return [Number(day)];
    throw new UsageError(
      `--slot "${spec}": "${raw}" is not a day (mon..sun, 1..7, weekdays, weekends, daily)`,
    );
  });
  // The server checks the time and answers which slot is wrong.
  return weekdays.map((weekday) => ({ weekday, time: time.trim() }));
}

function describeQueue(q: QueueView): string {
  const byDay = dayNames.map((name, i) => {
    const times = q.slots.filter((s) => s.weekday === i + 1).map((s) => s.time);
    return times.length ? `  ${name}  ${times.join(', ')}` : undefined;
  });
  const lines = [
    `Time zone: ${q.timezone}`,
    q.slots.length ? 'Slots:' : 'No slots: postwave queue set <account> --slot weekdays@09:00',
    ...byDay.filter((l): l is string => Boolean(l)),
  ];
  if (q.posts.length) {
    lines.push('Queued posts:');
    for (const p of q.posts) lines.push(`  ${p.scheduledAt}  ${p.id}  ${preview(p.message)}`);
  }
  if (q.freeSlots.length) lines.push(`Next free slot: ${q.freeSlots[0]}`);
  return `${lines.join('\n')}\n`;
}
