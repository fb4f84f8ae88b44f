import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('queue: set slots, queue posts from the composer, reorder by keyboard, post next', async ({
  page,
  shot,
}) => {
  await signUp(page, 'Queue Keeper');
  await connectTelegram(page);

  await page.getByRole('link', { name: 'Queue' }).click();
  await expect(page.getByRole('heading', { name: 'Queue', level: 1 })).toBeVisible();
  const card = page.locator('.queue-card');
  await expect(card.getByText('Nothing queued for this account.')).toBeVisible();
  await shot(page, 'queue-empty');
  await expectAccessible(page, 'queue-empty', { testInfo: test.info(), soft: true });

  // Three weekly slots in the editor.
  await card.getByLabel('Time zone').selectOption('Europe/Berlin');
  const slots = [
    ['Monday', '09:00'],
    ['Wednesday', '12:30'],
    ['Friday', '17:00'],
  ] as const;
  // The editor is a week grid (issue 30): a day's "Add" gives it a time, which is then edited.
  // By keyboard: Add gives the new time field the focus.
  for (const [day, time] of slots) {
    await card.getByRole('button', { name: `Add a time on ${day}` }).press('Enter');
    await expect(card.getByLabel(`${day} time 1`)).toBeFocused();
    await card.getByLabel(`${day} time 1`).fill(time);
  }
  // Save slots keeps the focus while it saves (aria-disabled, not disabled) and after.
  const saveSlots = card.getByRole('button', { name: 'Save slots' });
  await saveSlots.press('Enter');
  await expect(card.getByRole('status').filter({ hasText: 'Saved 3 slots' })).toBeVisible();
  await expect(saveSlots).toBeFocused();
  await expect(card.getByText(/Next free slot:/)).toBeVisible();
  await shot(page, 'queue-slots');
  await expectAccessible(page, 'queue-slots', { testInfo: test.info(), soft: true });

  // Three posts join the queue from the composer.
  const messages = ['First in line', 'Second in line', 'Third in line'];
  const [first, second, third] = messages as [string, string, string];
  for (const message of messages) {
    await page.goto('/compose');
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await expect(page.locator('.target').getByText('Ready')).toBeVisible();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
    await expect(page.locator('.page-head .badge')).toHaveText('Scheduled');
  }
  await expect(page.getByText('Added to the queue')).toBeVisible();

  await page.goto('/queue');
  const items = card.locator('.queue-item');
  await expect(items).toHaveCount(3);
  await expect(items.locator('.queue-message')).toHaveText(messages);
  const timesBefore = await items
    .locator('time')
    .evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
  await shot(page, 'queue-posts');
  await expectAccessible(page, 'queue-posts', { testInfo: test.info(), soft: true });

  // Keyboard: Tab to "Move up" of the second post and press Enter; the times stay, the order changes.
  const upSecond = card.getByRole('button', { name: 'Move “Second in line” up' });
  await upSecond.focus();
  await page.keyboard.press('Enter');
  await expect(items.locator('.queue-message')).toHaveText([second, first, third]);
  await expect(
    card.getByRole('status').filter({ hasText: 'Moved up: “Second in line” is now 1 of 3' }),
  ).toHaveCount(1);
  expect(
    await items.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime'))),
  ).toEqual(timesBefore);
  // Focus stays with the post that moved (its "up" is disabled at the top, so another of its buttons).
  await expect(page.locator('.queue-item:first-child button:focus')).toHaveCount(1);

  // Keyboard again: "Move down" on the new first post.
  await card.getByRole('button', { name: 'Move “Second in line” down' }).focus();
  await page.keyboard.press('Enter');
  await expect(items.locator('.queue-message')).toHaveText(messages);

  // "Post next" puts the last post first; the others move one place later.
  await card.getByRole('button', { name: 'Post next: “Third in line”' }).click();
  await expect(items.locator('.queue-message')).toHaveText([third, first, second]);
  await expect(card.getByRole('status').filter({ hasText: 'Posting next: “Third in line”' })).toHaveCount(1);
  expect(
    await items.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime'))),
  ).toEqual(timesBefore);
  await shot(page, 'queue-reordered');
  await expectAccessible(page, 'queue-reordered', { testInfo: test.info(), soft: true });

  // The order survives a reload: it is the posts' scheduled times.
  await page.reload();
  await expect(items.locator('.queue-message')).toHaveText([third, first, second]);

  // On a 375px phone the page fits: no sideways scrolling, the buttons and titles uncovered.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(items).toHaveCount(3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const up = card.getByRole('button', { name: 'Move “First in line” up' });
  await up.scrollIntoViewIfNeeded();
  const upBox = (await up.boundingBox())!;
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.getAttribute('aria-label'),
    [upBox.x + upBox.width / 2, upBox.y + upBox.height / 2],
  );
  expect(hit).toBe('Move “First in line” up');
  await shot(page, 'queue-375');
});
