import { sampleJpeg } from '@postwave/shared/testing';
import { expectAccessible } from './axe.ts';
import { expect, signUp, test } from './fixtures.ts';

test('connect X and Instagram through their OAuth consent, then publish one post with an image to both', async ({
  page,
  x,
  instagram,
  shot,
}) => {
  await signUp(page, 'Grace Hopper');

  // X: the button goes to our connect route, the fake consent screen approves and sends the
  // browser back to the callback, which lands on the accounts page with the account saved.
  await page.locator('button[data-platform="x"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  await expect(page.getByRole('status')).toContainText('Connected');
  await expect(page.getByTestId('account-card')).toHaveCount(1);
  await expect(page.getByTestId('account-card')).toContainText(x.user.name);

  await page.locator('button[data-platform="instagram"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  await expect(page.getByTestId('account-card')).toHaveCount(2);
  await expect(page.getByTestId('account-card').nth(1)).toContainText(instagram.account.name);
  await shot(page, 'accounts-oauth');
  await expectAccessible(page, 'accounts-oauth', { testInfo: test.info(), soft: true });

  await page.getByRole('link', { name: 'Compose' }).click();
  await expect(page.getByRole('heading', { name: 'Compose' })).toBeVisible();
  const chips = page.locator('.account-chip');
  await expect(chips).toHaveCount(2);
  for (let i = 0; i < 2; i++) {
    if ((await chips.nth(i).getAttribute('aria-pressed')) !== 'true') await chips.nth(i).click();
  }
  await expect(page.locator('.account-chip[aria-pressed="true"]')).toHaveCount(2);
  const message = 'Two networks, one post 🚀';
  await page.getByRole('textbox', { name: 'Message' }).fill(message);
  await page
    .getByTestId('media-input')
    .setInputFiles({ name: 'launch.jpg', mimeType: 'image/jpeg', buffer: sampleJpeg() });
  await expect(page.getByTestId('media-item')).toHaveAttribute('data-uploaded', 'true');
  await shot(page, 'compose-oauth');
  await expectAccessible(page, 'compose-oauth', { testInfo: test.info(), soft: true });

  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
  await expect(page.locator('.page-head .badge')).toHaveText('Posted');
  await expect(page.getByTestId('result')).toHaveCount(2);
  await shot(page, 'post-posted-oauth');
  await expectAccessible(page, 'post-posted-oauth', { testInfo: test.info(), soft: true });

  const tweet = x.posts.at(-1)!;
  expect(tweet.text).toBe(message);
  expect(tweet.mediaIds).toHaveLength(1);
  const post = instagram.media.at(-1)!;
  expect(post.caption).toBe(message);
  expect(instagram.containers.get(post.containerId)?.media?.bytes).toEqual(sampleJpeg());
});
