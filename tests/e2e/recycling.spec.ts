import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

/*
 * Evergreen recycling (docs/recycling.md): "Repeat this post" in the composer, the chain on the
 * post page and "Stop repeating", keyboard-usable, axe-clean, at phone width.
 */
test('repeat a post: the composer sends recycle, the post page shows the chain and stops it', async ({
  page,
  shot,
}) => {
  await signUp(page, 'Evergreen Writer');
  await connectTelegram(page);
  await page.goto('/compose');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Our evergreen guide');

  const repeat = page.getByRole('group', { name: 'Repeat this post' });
  await repeat.getByRole('checkbox', { name: 'Post it again later (evergreen)' }).check();
  const every = repeat.getByRole('spinbutton', { name: 'Every (days)' });
  await expect(every).toHaveAccessibleDescription(/From 7 to 365 days/);

  // Out of bounds: refused before any request, in plain words at the field, which takes the focus.
  let posted = false;
  const watch = (r: import('@playwright/test').Request) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/posts') posted = true;
  };
  page.on('request', watch);
  await every.fill('3');
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(every).toHaveAttribute('aria-invalid', 'true');
  await expect(every).toHaveAccessibleDescription(/Every: 7 to 365 days/);
  await expect(every).toBeFocused();
  await expect(page.getByText(/is not valid|Too small|recycle\./)).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Fix the repeat settings' })).toHaveCount(1);
  await expectAccessible(page, 'compose-repeat-refused');
  expect(posted).toBe(false);
  page.off('request', watch);

  await every.fill('7');
  await expect(every).not.toHaveAttribute('aria-invalid', 'true');
  await repeat.getByRole('spinbutton', { name: 'Times at most' }).fill('2');
  // Keyboard only: Tab reaches the jitter field and typing replaces its value.
  await repeat.getByRole('spinbutton', { name: 'Times at most' }).focus();
  await page.keyboard.press('Tab');
  await expect(repeat.getByRole('spinbutton', { name: 'Vary by (minutes)' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('30');
  await expectAccessible(page, 'compose-repeat');

  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'compose-repeat-phone');
  await page.setViewportSize({ width: 1280, height: 860 });

  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/posts',
  );
  await page.getByRole('button', { name: 'Publish now' }).click();
  expect((await sent).postDataJSON().recycle).toEqual({ intervalDays: 7, maxTimes: 2, jitterMinutes: 30 });
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+\?done=now/);

  const chain = page.getByTestId('recycle-chain');
  await expect(chain.getByRole('heading', { name: 'Repeats' })).toBeVisible();
  await expect(chain).toContainText('Every 7 days, at most 2 times, varied by up to 30 minutes.');
  await expect(chain.getByText('Original')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('post-history')).toContainText('scheduled recycled copy 1');
  await expectAccessible(page, 'post-recycle-chain');
  await shot(page, 'post-recycle-chain');

  // The copy's page names its place in the chain and leads back to the original.
  await chain.getByRole('link', { name: 'Copy 1' }).click();
  await expect(page.getByTestId('recycle-chain')).toContainText('Copy 1 of the original post.');
  await page.getByTestId('recycle-chain').getByRole('link', { name: 'the original post' }).click();

  await page.getByRole('button', { name: 'Stop repeating' }).press('Enter');
  await expect(page.getByTestId('recycle-chain')).toContainText('Repeating is off.');
  // The button is gone: the settings line that says so has the focus, not <body>.
  await expect(page.getByTestId('recycle-chain').getByText('Repeating is off.')).toBeFocused();
  await expect(page.getByTestId('recycle-chain').getByRole('link', { name: 'Copy 1' })).toHaveCount(0);
  await expect(page.getByTestId('recycle-stops')).toContainText('recycling was turned off');
  await expectAccessible(page, 'post-recycle-stopped');
});
