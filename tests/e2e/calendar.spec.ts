import type { Page } from '@playwright/test';
import { zonedToUtc } from '../../web/components/lib/time.ts';
import { expectAccessible } from './axe.ts';
import { botToken, connectTelegram, expect, signUp, test } from './fixtures.ts';

const zone = 'Europe/Berlin';
const dayMs = 86_400_000;

/** `YYYY-MM-DD` of the Monday of next week, in the user's zone. */
function nextMonday(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  const monday = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * dayMs + 7 * dayMs);
  return monday.toISOString().slice(0, 10);
}
const plusDays = (day: string, n: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() + n * dayMs).toISOString().slice(0, 10);

/** The API as the signed-in browser calls it (same-origin). */
async function apiPost(page: Page, path: string, data: unknown) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(path, { data, headers: { origin } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

test.describe.configure({ mode: 'serial' });

test('calendar: week and month, filters, drag and keyboard reschedule', async ({
  page,
  x,
  telegram: telegramFake,
  shot,
}) => {
  await signUp(page, 'Cal Endar');
  await connectTelegram(page);
  await page.locator('button[data-platform="x"]').click();
  await expect(page.getByTestId('account-card')).toHaveCount(2);
  const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
  const telegram = accounts.find((a: { platform: string }) => a.platform === 'telegram');
  const xAccount = accounts.find((a: { platform: string }) => a.platform === 'x');

  const monday = nextMonday();
  const tuesday = plusDays(monday, 1);
  const wednesday = plusDays(monday, 2);
  const thursday = plusDays(monday, 3);
  // Next week is always ahead, whatever day today is.
  const at = (day: string, time: string) => zonedToUtc(`${day}T${time}`, zone)!.toISOString();
  await apiPost(page, '/api/v1/posts', {
    message: 'Telegram Tuesday',
    accountIds: [telegram.id],
    postingMode: 'schedule',
    scheduledAt: at(tuesday, '10:00'),
  });
  await apiPost(page, '/api/v1/posts', {
    message: 'X Thursday',
    accountIds: [xAccount.id],
    postingMode: 'schedule',
    scheduledAt: at(thursday, '15:00'),
  });

  await page.goto(`/calendar?view=week&date=${monday}`);
  const day = (d: string) => page.locator(`.cal-day[data-day="${d}"]`);
  await expect(day(tuesday).locator('.cal-event')).toContainText('10:00 Telegram Tuesday');
  await expect(day(thursday).locator('.cal-event')).toContainText('15:00 X Thursday');
  await shot(page, 'calendar-week-posts');
  await expectAccessible(page, 'calendar-week-posts', { testInfo: test.info(), soft: true });

  // Month view of the same date keeps the posts.
  await page.getByRole('navigation', { name: 'Calendar view' }).getByRole('link', { name: 'Month' }).click();
  await expect(page).toHaveURL(/view=month/);
  await expect(day(tuesday).locator('.cal-event')).toContainText('Telegram Tuesday');
  await expect(day(thursday).locator('.cal-event')).toContainText('X Thursday');
  await shot(page, 'calendar-month-posts');
  await expectAccessible(page, 'calendar-month-posts', { testInfo: test.info(), soft: true });
  await page.getByRole('navigation', { name: 'Calendar view' }).getByRole('link', { name: 'Week' }).click();
  await expect(page).toHaveURL(/view=week/);

  // Filters: by account, then by status.
  const filters = page.getByRole('form', { name: 'Filter posts' });
  await filters.getByLabel('Account').selectOption({ label: x.user.name });
  await filters.getByRole('button', { name: 'Filter' }).click();
  await expect(page.locator('.cal-event')).toHaveCount(1);
  await expect(page.locator('.cal-event')).toContainText('X Thursday');
  await shot(page, 'calendar-filter-account');
  await expectAccessible(page, 'calendar-filter-account', { testInfo: test.info(), soft: true });
  await filters.getByLabel('Account').selectOption('');
  await filters.getByLabel('Status').selectOption('posted');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await expect(page.locator('.cal-event')).toHaveCount(0);
  await expect(page.getByText('Nothing posted in this week.')).toBeVisible();
  await filters.getByLabel('Status').selectOption('scheduled');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await expect(page.locator('.cal-event')).toHaveCount(2);

  // Pointer: drag Tuesday's post onto Wednesday; it keeps its time of day.
  await day(tuesday).locator('.cal-event').dragTo(day(wednesday));
  await expect(day(wednesday).locator('.cal-event')).toContainText('10:00 Telegram Tuesday');
  await expect(day(tuesday).locator('.cal-event')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Rescheduled “Telegram Tuesday”' })).toHaveCount(1);
  await shot(page, 'calendar-dragged');
  await expectAccessible(page, 'calendar-dragged', { testInfo: test.info(), soft: true });

  // Keyboard: Move button, Left arrow (a day earlier), Enter; announced, and the focus follows the post.
  const move = page.getByRole('button', { name: 'Move “X Thursday”' });
  await move.focus();
  await page.keyboard.press('Enter');
  await expect(move).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(
    page.getByRole('status').filter({ hasText: /Wednesday .* 15:00\. Enter to move here/ }),
  ).toHaveCount(1);
  await expect(day(wednesday)).toHaveAttribute('data-drop-target', 'true');
  await shot(page, 'calendar-keyboard-moving');
  await expectAccessible(page, 'calendar-keyboard-moving', { testInfo: test.info(), soft: true });
  await page.keyboard.press('Enter');
  await expect(day(wednesday).locator('.cal-event')).toHaveCount(2);
  await expect(day(thursday).locator('.cal-event')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Rescheduled “X Thursday”' })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Move “X Thursday”' })).toBeFocused();

  // Escape cancels a keyboard move.
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('status').filter({ hasText: 'Move cancelled' })).toHaveCount(1);
  await expect(day(wednesday).locator('.cal-event')).toHaveCount(2);

  // The server has the new times.
  const posts = (await (await page.request.get('/api/v1/posts?status=scheduled')).json()).posts as {
    message: string;
    scheduledAt: string;
  }[];
  const byMessage = Object.fromEntries(posts.map((p) => [p.message, p.scheduledAt]));
  expect(byMessage['Telegram Tuesday']).toBe(at(wednesday, '10:00'));
  expect(byMessage['X Thursday']).toBe(at(wednesday, '15:00'));
  await shot(page, 'calendar-rescheduled');
  await expectAccessible(page, 'calendar-rescheduled', { testInfo: test.info(), soft: true });

  // Published now today: one goes out; then Telegram refuses the bot, so the next fails (it has no
  // posted or scheduled time) and the account needs reconnecting.
  const went = await apiPost(page, '/api/v1/posts', {
    message: 'Went out today',
    accountIds: [telegram.id],
    postingMode: 'now',
  });
  expect(went.status).toBe('posted');
  telegramFake.inject({
    path: new RegExp(`/bot${botToken}/sendMessage$`),
    status: 401,
    json: { ok: false, error_code: 401, description: 'Unauthorized' },
  });
  const failed = await apiPost(page, '/api/v1/posts', {
    message: 'Failed today',
    accountIds: [telegram.id],
    postingMode: 'now',
  });
  expect(failed.status).toBe('failed');
  await page.goto('/calendar?view=week');
  const today = page.locator('.cal-day[data-today="true"]');
  const posted = today.locator('.cal-event', { hasText: 'Went out today' });
  await expect(posted).toHaveAttribute('data-status', 'posted');
  // Past reconnecting: a post that went out (or failed) carries no mark; one still to go out does.
  await expect(posted).not.toHaveAttribute('data-trouble', /.*/);
  await expect(posted.getByRole('img')).toHaveCount(0);
  await filters.getByLabel('Status').selectOption('failed');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/status=failed/);
  const failedEntry = today.locator('.cal-event', { hasText: 'Failed today' });
  await expect(failedEntry).toHaveAttribute('data-status', 'failed');
  await expect(page.locator('.cal-event')).toHaveCount(1);
  await expect(page.getByText('Nothing failed in this week.')).toHaveCount(0);
  await page.goto(`/calendar?view=week&date=${monday}`);
  const upcoming = day(wednesday).locator('.cal-event', { hasText: 'Telegram Tuesday' });
  await expect(upcoming).toHaveAttribute('data-trouble', 'true');
  await expect(upcoming.getByRole('img', { name: /needs reconnecting/ })).toBeVisible();
  await expect(day(wednesday).locator('.cal-event', { hasText: 'X Thursday' })).not.toHaveAttribute(
    'data-trouble',
    /.*/,
  );
  await shot(page, 'calendar-trouble-upcoming-only');
});

test('calendar: a move to a past day is refused at the post, once, and the focus stays', async ({
  page,
  shot,
}) => {
  await signUp(page, 'Past Mover');
  await connectTelegram(page);
  const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
  const monday = nextMonday();
  const at = zonedToUtc(`${monday}T09:30`, zone)!.toISOString();
  await apiPost(page, '/api/v1/posts', {
    message: 'Not backwards',
    accountIds: [accounts[0].id],
    postingMode: 'schedule',
    scheduledAt: at,
  });

  await page.goto(`/calendar?view=month&date=${monday}`);
  const move = page.getByRole('button', { name: 'Move “Not backwards”' });
  await move.focus();
  await page.keyboard.press('Enter');
  // Two weeks back from next Monday is always before today.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');

  const event = page.locator('.cal-event', { hasText: 'Not backwards' });
  await expect(event.getByRole('alert')).toHaveText('That day has passed: choose today or later.');
  await expect(page.getByText('That day has passed')).toHaveCount(1);
  await expect(page.getByText(/in the past|Must be in the future|Could not reschedule/)).toHaveCount(0);
  await expect(move).toBeFocused();
  await expect(move).toHaveAccessibleDescription(/That day has passed/);
  await shot(page, 'calendar-past-refused');
  await expectAccessible(page, 'calendar-past-refused', { testInfo: test.info(), soft: true });

  const post = (await (await page.request.get('/api/v1/posts?status=scheduled')).json()).posts[0];
  expect(post.scheduledAt).toBe(at);
});
