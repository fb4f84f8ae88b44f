import { type FakeYouTube, startFakeYouTube } from '@postwave/shared/testing';
import { startApp } from '../../web/test/helpers/app.ts';
import { expectAccessible } from './axe.ts';
import { test as base, expect, signUp } from './fixtures.ts';

/**
 * An option whose choices come from the platform (`choicesFrom`): YouTube's category, loaded for
 * the connected channel into the composer's searchable select. Driven by keyboard alone, checked
 * with axe while the list is open, and sent as the chosen value. Its own app: YouTube connects
 * only where Google's client settings are set (the other journeys check the unset case).
 */
const test = base.extend<object, { youtube: FakeYouTube }>({
  youtube: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const youtube = await startFakeYouTube({
        channel: { title: 'Postwave Channel', customUrl: '@postwave' },
      });
      await use(youtube);
      await youtube.close();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ youtube }, use) => {
      const app = await startApp('pglite', {
        ...youtube.env(),
        GOOGLE_CLIENT_ID: youtube.clientId,
        GOOGLE_CLIENT_SECRET: youtube.clientSecret,
        GOOGLE_OAUTH_AUTHORIZE_URL: youtube.authorizationUrl,
      });
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

test('a category chosen by keyboard from the choices YouTube offers the channel', async ({
  page,
  youtube,
  shot,
}) => {
  await signUp(page, 'Margaret Hamilton');
  await page.locator('button[data-platform="youtube"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  await expect(page.getByTestId('account-card')).toContainText('Postwave Channel');

  await page.getByRole('link', { name: 'Compose' }).click();
  await expect(page.getByRole('heading', { name: 'Compose' })).toBeVisible();
  const category = page.getByRole('combobox', { name: 'Category' });
  await expect(category).toBeVisible();
  const status = page.locator(`#${await category.getAttribute('id')}-status`);
  await expect(category).not.toHaveAttribute('aria-busy', 'true');
  expect(youtube.categoryRegions.length).toBeGreaterThan(0);

  // Typing filters the list and says how many choices match.
  await category.focus();
  await page.keyboard.type('sci');
  await expect(category).toHaveAttribute('aria-expanded', 'true');
  const listbox = page.getByRole('listbox', { name: 'Category choices' });
  await expect(listbox.getByRole('option')).toHaveText(['Science & Technology']);
  await expect(status).toHaveText('1 choice available.');

  // An open list, its active option announced through aria-activedescendant.
  await page.keyboard.press('ArrowDown');
  const active = await category.getAttribute('aria-activedescendant');
  expect(active).toBeTruthy();
  await expect(page.locator(`#${active}`)).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'compose-option-choices');
  await expectAccessible(page, 'compose-option-choices', { testInfo: test.info() });

  await page.keyboard.press('Enter');
  await expect(category).toHaveValue('Science & Technology');
  await expect(category).toHaveAttribute('aria-expanded', 'false');

  // Text that names no choice is not kept: the field allows only what YouTube offers.
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Not a category');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(category).toHaveValue('Science & Technology');

  // Down opens the whole list at the chosen entry; Up and Enter pick the one above it.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(`#${await category.getAttribute('aria-activedescendant')}`)).toHaveText(
    'Science & Technology',
  );
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(category).toHaveValue('Education');

  // The draft carries the category's id, not its label.
  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/posts',
  );
  await page.getByRole('textbox', { name: 'Message' }).fill('A lecture on orbital mechanics');
  await page.getByRole('button', { name: 'Save draft' }).click();
  const body = (await sent).postDataJSON() as { accountOptions: Record<string, { categoryId?: string }> };
  expect(Object.values(body.accountOptions)[0]?.categoryId).toBe('27');
});
