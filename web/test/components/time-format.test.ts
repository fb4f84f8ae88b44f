import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  formatDateTime,
  formatDay,
  formatSlot,
  formatSpoken,
  formatTime,
} from '../../components/lib/time.ts';

/** One way of writing time (issue 30): the person's zone and locale, through components/lib/time.ts only. */
const web = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const at = '2026-11-25T13:30:00.000Z';

test('times are written in the given zone and locale, never the machine’s', () => {
  assert.equal(formatTime(at, 'Europe/Berlin'), '14:30');
  assert.equal(formatTime(at, 'America/New_York'), '08:30');
  assert.equal(formatDateTime(at, 'Europe/Berlin', 'en-GB'), 'Wed, 25 Nov 2026, 14:30');
  assert.match(formatDateTime(at, 'Europe/Berlin', 'en-US'), /^Wed, Nov 25, 2026, 0?2:30\s?PM$/);
  assert.match(formatDateTime(at, 'Europe/Berlin', 'de-DE'), /^Mi\., 25\. Nov\. 2026, 14:30$/);
  assert.equal(formatSlot(at, 'Asia/Tokyo', 'en-GB'), 'Wed 25 Nov, 22:30');
  assert.equal(formatSpoken(at, 'UTC', 'en-GB'), 'Wednesday 25 November at 13:30');
  assert.equal(formatDay('2026-11-25', 'full', 'en-GB'), 'Wednesday, 25 November 2026');
  assert.equal(formatDay('2026-11-25', 'monthYear', 'en-GB'), 'November 2026');
  assert.equal(formatDay('2026-11-25', 'dayMonth', 'en-GB'), '25 Nov');
});

test('an unknown locale falls back to en-GB instead of throwing', () => {
  assert.equal(formatTime(at, 'UTC', 'not a locale!'), '13:30');
});

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

test('no page or component formats a date itself: they all use components/lib/time.ts', () => {
  const found: string[] = [];
  for (const file of [...files(join(web, 'components')), ...files(join(web, 'app'))]) {
    if (file.endsWith(join('lib', 'time.ts'))) continue;
    const source = readFileSync(file, 'utf8');
    for (const pattern of [
      /new Intl\.DateTimeFormat\(/,
      /\.toLocale(?:Date|Time)String\(/,
      /\b(?:checked|date|when|at|time)\.toLocaleString\(/,
    ]) {
      if (pattern.test(source)) found.push(`${relative(web, file)}: ${pattern}`);
    }
  }
  assert.deepEqual(found, []);
});
