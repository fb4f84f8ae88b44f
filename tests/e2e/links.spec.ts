import { type FakeShlink, startFakeShlink } from '@postwave/shared/testing';
import { startApp } from '../../web/test/helpers/app.ts';
import { expectAccessible } from './axe.ts';
import { test as base, connectTelegram, expect, signUp } from './fixtures.ts';

/**
 * Tracked links in the browser (docs/links.md): the settings section (UTM fields, the shortener,
 * a write-only key), then a post whose link goes out shortened, shown per account on its page.
 */
const key = 'shlink-e2e-SECRET-41c7';

const test = base.extend<object, { shlink: FakeShlink }>({
  shlink: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const shlink = await startFakeShlink([key]);
      await use(shlink);
      await shlink.close();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ telegram, shlink }, use) => {
      const app = await startApp('pglite', {
        TELEGRAM_API_URL: telegram.url,
        ALLOW_PRIVATE_HOSTS: new URL(shlink.url).host,
      });
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test('tracked links: set UTM and a shortener by keyboard, the key never shown; a post shows its short link', async ({
  page,
  shlink,
  telegram,
  shot,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signUp(page, 'Grace Hopper');
  await connectTelegram(page);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Tracked links' });
  await expect(section).toBeVisible();
  await section.getByLabel('Add UTM parameters to links').check();
  await expect(section.getByLabel('utm_source')).toHaveValue('{platform}');
  await section.getByLabel('utm_campaign (optional)').fill('launch');
  await section.getByLabel('URL shortener').selectOption('shlink');
  // Refusals land under their fields (aria-invalid, described by the error) and take the focus.
  const apiUrl = section.getByLabel('API URL');
  const apiKey = section.getByLabel('API key');
  const domain = section.getByLabel('Short domain (optional)');
  const save = section.getByRole('button', { name: 'Save link settings' });
  await apiUrl.fill('http://10.0.0.1');
  await domain.fill('bad domain!');
  await save.press('Enter');
  await expect(domain).toBeFocused();
  await expect(domain).toHaveAttribute('aria-invalid', 'true');
  await expect(domain).toHaveAccessibleDescription('Give a host name only, like go.example.com.');
  await domain.fill('');
  await save.press('Enter');
  await expect(apiUrl).toBeFocused();
  await expect(apiUrl).toHaveAttribute('aria-invalid', 'true');
  await expect(domain).not.toHaveAttribute('aria-invalid');
  await expect(section.getByText(/This address cannot be used/)).toBeVisible();
  await apiUrl.fill(shlink.url);
  await save.press('Enter');
  await expect(apiKey).toBeFocused();
  await expect(apiKey).toHaveAccessibleDescription(/Give the API key: a new shortener/);
  await apiKey.fill(key);
  await save.press('Enter');
  await expect(section.getByText('A key is stored (never shown)')).toBeVisible();
  // aria-disabled while saving, not disabled: the button kept the focus.
  await expect(save).toBeFocused();
  await expect(apiKey).not.toHaveAttribute('aria-invalid');
  await expect(section.getByLabel('API key')).toHaveValue('');
  await shot(page, 'links-settings');
  await expectAccessible(page, 'links-settings', { testInfo: test.info() });
  await page.reload();
  expect(await page.content()).not.toContain(key);
  // No horizontal scrolling at 390 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A post with a link, published through the API as the signed-in person.
  const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
  const published = await page.request.post('/api/v1/posts', {
    headers: { origin: new URL(page.url()).origin },
    data: { message: 'New: https://ex.com/launch', accountIds: [accounts[0].id], postingMode: 'now' },
  });
  expect(published.status()).toBe(201);
  const post = await published.json();
  expect(post.status).toBe('posted');
  const shortUrl = shlink.links.at(-1)!.shortUrl;
  expect(telegram.sent.at(-1)!.text).toContain(shortUrl);
  await page.goto(`/posts/${post.id}`);
  const links = page.getByRole('list', { name: 'Short links' });
  await expect(links).toContainText(shortUrl);
  await expect(links).toContainText('https://ex.com/launch');
  await shot(page, 'links-post-page');
  await expectAccessible(page, 'links-post-page', { testInfo: test.info() });
});
