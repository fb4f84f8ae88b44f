import { mkdirSync } from 'node:fs';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import {
  type FakeInstagram,
  type FakeTelegram,
  type FakeX,
  startFakeInstagram,
  startFakeTelegram,
  startFakeX,
} from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../web/test/helpers/app.ts';

export const botToken = '123456:AAE2eTestTokenForPostwaveE2e_abcdefg';
export const chat = { handle: '@news', id: -1001234567890, title: 'Postwave News' };

interface WorkerFixtures {
  telegram: FakeTelegram;
  /** OAuth platforms: their consent screens approve at once and send the browser back. */
  x: FakeX;
  instagram: FakeInstagram;
  app: RunningApp;
}

export const test = base.extend<{ shot: (page: Page, name: string) => Promise<void> }, WorkerFixtures>({
  telegram: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const telegram = await startFakeTelegram({
        bots: { [botToken]: { username: 'postwave_news_bot', firstName: 'Postwave' } },
        chats: { [chat.handle]: { id: chat.id, type: 'channel', title: chat.title, username: 'news' } },
      });
      await use(telegram);
      await telegram.close();
    },
    { scope: 'worker' },
  ],
  x: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const x = await startFakeX();
      await use(x);
      await x.close();
    },
    { scope: 'worker' },
  ],
  instagram: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
    async ({}, use) => {
      const instagram = await startFakeInstagram();
      await use(instagram);
      await instagram.close();
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ telegram, x, instagram }, use) => {
      const app = await startApp('pglite', {
        ...x.env(),
        ...instagram.env(),
        TELEGRAM_API_URL: telegram.url,
        DISPATCHER_ENABLED: 'true',
        DISPATCHER_INTERVAL_MS: '2000',
        // Info, so the password reset journey can read the reset link the app logs without SMTP.
        LOG_LEVEL: 'info',
      });
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ app }, use) => use(app.url),
  // Every journey also proves the page CSP blocks nothing the app needs (Next's scripts carry the nonce).
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content[ -]Security[ -]Policy/i.test(message.text())) violations.push(message.text());
    });
    await use(page);
    expect(violations, 'CSP violations').toEqual([]);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
  shot: async ({}, use) => {
    mkdirSync('test-results/screenshots', { recursive: true });
    await use(async (page, name) => {
      await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
    });
  },
});

export { expect };

let userCounter = 0;

/** Signs up a fresh user through the form and lands on the accounts page. */
export async function signUp(
  page: Page,
  name = 'Ada Lovelace',
): Promise<{ email: string; password: string }> {
  const email = `user${Date.now()}-${++userCounter}@example.test`;
  const password = 'correct horse battery';
  await page.goto('/signup');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/accounts/);
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  return { email, password };
}

/** Connects the fake Telegram channel from the accounts page. */
export async function connectTelegram(page: Page): Promise<void> {
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Telegram' }).click();
  await page.getByLabel('Bot token').fill(botToken);
  await page.getByLabel('Channel or chat').fill(chat.handle);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Connected');
  // The form and its button are gone: the outcome has the focus, not <body> (docs/web-ui.md, Focus).
  await expect(page.getByRole('status')).toBeFocused();
  await expect(page.getByTestId('account-card')).toHaveCount(1);
}

/** Selects a composer account chip: a click before hydration does nothing, so click until it says so. */
export async function selectChip(chip: Locator): Promise<void> {
  await expect(async () => {
    if ((await chip.getAttribute('aria-pressed')) !== 'true') await chip.click();
    await expect(chip).toHaveAttribute('aria-pressed', 'true', { timeout: 1000 });
  }).toPass();
}
