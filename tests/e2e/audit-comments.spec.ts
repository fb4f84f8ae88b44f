import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

/**
 * Comments on the post page and the audit log (docs/workspaces.md#comments, #audit-log) in
 * Chromium: a comment written with the keyboard appears under the post; the owner finds the
 * workspace's changes in Settings → Audit log, filters them, and the page holds at 390 px.
 * Both pages are axe-clean.
 */

/** Same-origin API calls from the signed-in page (the session cookie and Origin go with them). */
async function apiCall<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    },
    { method, path, body },
  );
}

test('comment on a post with the keyboard, then read the audit log and filter it', async ({ page, shot }) => {
  await signUp(page, 'Grace Hopper');
  await connectTelegram(page);
  const { accounts } = await apiCall<{ accounts: { id: string }[] }>(page, 'GET', '/api/v1/accounts');
  const draft = await apiCall<{ id: string }>(page, 'POST', '/api/v1/posts', {
    message: 'Launch notes for review',
    accountIds: [accounts[0]!.id],
    postingMode: 'draft',
  });

  await page.goto(`/posts/${draft.id}`);
  const comments = page.getByRole('region', { name: 'Comments' });
  await expect(comments.getByText('No comments yet.')).toBeVisible();
  const field = comments.getByLabel('Add a comment');
  await field.focus();
  await page.keyboard.type('Can we add the link to the changelog?');
  await page.keyboard.press('Tab');
  await expect(comments.getByRole('button', { name: 'Post comment' })).toBeFocused();
  await page.keyboard.press('Enter');
  const list = comments.getByRole('listitem');
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText('Grace Hopper');
  await expect(list.first()).toContainText('Can we add the link to the changelog?');
  await expect(field).toHaveValue('');
  // An empty comment is refused by the server with a message (422), announced as an alert.
  const refused = await apiCall<{ status: number; errors: { path: string }[] }>(
    page,
    'POST',
    `/api/v1/posts/${draft.id}/comments`,
    { body: '   ' },
  );
  expect(refused.status).toBe(422);
  expect(refused.errors[0]?.path).toBe('body');
  await shot(page, 'post-comments');
  await expectAccessible(page, 'post-comments', { testInfo: test.info(), soft: true });

  await page.goto('/settings');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = page.getByTestId('audit-table');
  await expect(table.getByRole('row').filter({ hasText: 'Post created' })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: 'Account connected' })).toHaveCount(1);
  await expect(table.getByRole('row').nth(1)).toContainText('Post created');
  await expect(table.getByRole('row').nth(1)).toContainText('Grace Hopper');
  await shot(page, 'audit-log');
  await expectAccessible(page, 'audit-log', { testInfo: test.info(), soft: true });

  // Filter by action with the keyboard: the select, then Apply.
  await page.getByLabel('Action').selectOption('account.connected');
  await page.getByLabel('Member').selectOption({ label: 'Grace Hopper' });
  await page.getByRole('button', { name: 'Apply' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/action=account\.connected/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('Account connected');
  await expect(table.getByRole('row').nth(1)).toContainText('Telegram');
  // A day range far in the past finds nothing.
  await page.getByLabel('From (UTC day)').fill('2001-01-01');
  await page.getByLabel('To (UTC day, included)').fill('2001-01-02');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('audit-empty')).toHaveText('No entries match these filters.');
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(table.getByRole('row')).toHaveCount(3);

  // On a phone the page does not scroll sideways; the table scrolls inside its focusable region.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('audit-table')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('region', { name: 'Audit entries, scrollable' }).focus();
  await expect(page.getByRole('region', { name: 'Audit entries, scrollable' })).toBeFocused();
  await shot(page, 'audit-log-phone');
  await expectAccessible(page, 'audit-log-phone', { testInfo: test.info(), soft: true });
  await page.goto(`/posts/${draft.id}`);
  const phoneOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(phoneOverflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'post-comments-phone', { testInfo: test.info(), soft: true });
});
