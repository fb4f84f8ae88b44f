import { mkdirSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { type FakeTelegram, samplePng, startFakeTelegram } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../web/test/helpers/app.ts';
import { expectAccessible } from './axe.ts';

/*
 * The first hour of a newcomer (issue 30), at 1280×800 and at 390×844, each on a fresh server so
 * the first visit is a first visit: sign-up → two accounts (fake Telegram channels) → an image post
 * with alt text, a per-account version and a thread → scheduled, and the post page turning to
 * "Posted" by itself → queue → feeds → import → settings → API docs. Every page is scanned with
 * axe and photographed into test-results/first-hour/<viewport>-<step>.png.
 */

const botToken = '123456:AAE2eTestTokenForPostwaveFirstHour_abc';
const chats = [
  { handle: '@news', id: -1001234567890, title: 'Postwave News', username: 'news' },
  { handle: '@updates', id: -1001234567891, title: 'Postwave Updates', username: 'updates' },
];
const password = 'correct horse battery';

interface Fixtures {
  fresh: RunningApp;
  telegram: FakeTelegram;
  /** Screenshot and axe scan of the page as it is now. */
  step: (page: Page, name: string) => Promise<void>;
}

const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument
  telegram: async ({}, use) => {
    const telegram = await startFakeTelegram({
      bots: { [botToken]: { username: 'postwave_first_hour_bot', firstName: 'Postwave' } },
      chats: Object.fromEntries(
        chats.map((c) => [
          c.handle,
          { id: c.id, type: 'channel' as const, title: c.title, username: c.username },
        ]),
      ),
    });
    await use(telegram);
    await telegram.close();
  },
  fresh: async ({ telegram }, use) => {
    const app = await startApp('pglite', {
      TELEGRAM_API_URL: telegram.url,
      DISPATCHER_ENABLED: 'true',
      DISPATCHER_INTERVAL_MS: '2000',
      LOG_LEVEL: 'info',
    });
    await use(app);
    await app.stop();
  },
  baseURL: async ({ fresh }, use) => use(fresh.url),
  step: async ({ viewport }, use, testInfo) => {
    const dir = 'test-results/first-hour';
    mkdirSync(dir, { recursive: true });
    const prefix = `${viewport?.width ?? 0}x${viewport?.height ?? 0}`;
    await use(async (page, name) => {
      await page.screenshot({ path: `${dir}/${prefix}-${name}.png`, fullPage: true });
      await expectAccessible(page, `first-hour-${prefix}-${name}`, { testInfo, soft: true });
    });
  },
});

/** No sideways scroll: the page is no wider than the window. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${where}: page ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
}

async function signUpFirst(page: Page, step: Fixtures['step'], email: string) {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  // A first visit: nobody to welcome back, no operator variables on the card.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Postwave');
  await expect(page.getByText('Welcome back')).toHaveCount(0);
  await expect(page.locator('main, body').first()).not.toContainText('GOOGLE_CLIENT_ID');
  await step(page, '01-first-visit');

  await page.getByTestId('first-account').click();
  await expect(page).toHaveURL(/\/signup/);
  await page.getByLabel('Name').fill('Dana Newcomer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The server refuses the short password; everything typed is still there.
  await expect(page.locator('#password-hint')).toHaveClass(/field-error/);
  await expect(page.getByLabel('Name')).toHaveValue('Dana Newcomer');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password')).toHaveValue('short');
  await step(page, '02-signup-short-password');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/accounts/);
}

async function connect(page: Page, handle: string) {
  await page.goto('/accounts');
  const before = await page.getByTestId('account-card').count();
  await page.getByRole('button', { name: 'Telegram' }).click();
  await page.getByLabel('Bot token').fill(botToken);
  await page.getByLabel('Channel or chat').fill(handle);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByTestId('account-card')).toHaveCount(before + 1);
}

/** Tabs through the page: focus is never on an element the person cannot see. */
async function expectFocusAlwaysVisible(page: Page, presses: number) {
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return undefined;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      const label = `${el.tagName.toLowerCase()}${el.getAttribute('type') ? `[type=${el.getAttribute('type')}]` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
      const hidden =
        box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || style.opacity === '0';
      // The skip link is invisible until focused, then shown: that is visible focus.
      return { label, hidden };
    });
    if (focused) expect(focused.hidden, `Tab ${i + 1} landed on a hidden ${focused.label}`).toBe(false);
  }
}

// Each journey has its own server: they need not run in order.

test.describe('first hour at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('sign-up to API docs, never losing input, never an untrue message', async ({ page, fresh, step }) => {
    test.setTimeout(480_000);
    const email = `dana${Date.now()}@example.test`;
    await signUpFirst(page, step, email);

    // No SMTP here: the banner says so, links to how to turn mail on, and can be dismissed.
    const banner = page.getByTestId('notice-verify-email');
    await expect(banner).toContainText('cannot send e-mail');
    await expect(banner).not.toContainText('we sent a link');
    await expect(banner.getByRole('link', { name: 'how to turn on e-mail' })).toHaveAttribute(
      'href',
      '/setup#setup-mail',
    );
    const guide = page.getByTestId('notice-getting-started');
    await expect(guide).toContainText('Connect your first account');
    await step(page, '03-accounts-first');
    await banner.getByRole('button', { name: /Dismiss/ }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('notice-verify-email')).toHaveCount(0);

    await connect(page, '@news');
    await connect(page, '@updates');
    await expect(page.getByTestId('account-card')).toHaveCount(2);
    await expect(page.getByTestId('notice-getting-started').locator('li[data-done="true"]')).toHaveCount(1);
    await step(page, '04-accounts-two');

    // The composer: an image with alt text, a version for @updates, a thread; scheduled.
    const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
    const news = accounts.find((a: { platformAccountId: string }) => a.platformAccountId === '@news');
    const updates = accounts.find((a: { platformAccountId: string }) => a.platformAccountId === '@updates');
    await page.goto('/compose');
    await expectFocusAlwaysVisible(page, 30);
    await page.getByTestId(`chip-${news.id}`).click();
    await page.getByTestId(`chip-${updates.id}`).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Our launch is today');
    await page
      .getByTestId('media-input')
      .setInputFiles({ name: 'launch.png', mimeType: 'image/png', buffer: samplePng() });
    await expect(page.getByTestId('media-item')).toHaveAttribute('data-uploaded', 'true');
    await page.getByRole('textbox', { name: 'Alt text for launch.png' }).fill('The launch poster, in blue');
    const tabs = page.getByRole('tablist', { name: 'Versions' });
    await tabs.getByRole('tab', { name: /updates/ }).click();
    await page
      .getByRole('tabpanel')
      .getByRole('textbox', { name: /^Version for/ })
      .fill('Launch day: the short version');
    await tabs.getByRole('tab', { name: /All accounts/ }).click();
    await page.getByRole('button', { name: 'Add to thread' }).click();
    await page.getByRole('textbox', { name: 'Thread part 2' }).fill('Part two: what is new');
    await expect(page.getByTestId(`preview-${updates.id}`)).toContainText('Launch day: the short version');
    await step(page, '05-compose');
    await page.getByRole('button', { name: 'Schedule…' }).click();
    // The minute after next, 30-90 s ahead: due while the rest of the hour goes on.
    const due = new Date(Date.now() + 90_000);
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .format(due)
      .replace(' ', 'T');
    await page.locator('#schedule-at').fill(local);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page).toHaveURL(/\/posts\/[^/]+\?done=schedule/);

    // The post page shows what goes out, per account, and turns to Posted by itself.
    const outgoing = page.getByTestId('outgoing');
    await expect(outgoing.getByTestId(`preview-${news.id}`)).toContainText('Our launch is today');
    await expect(outgoing.getByTestId(`preview-${updates.id}`)).toContainText(
      'Launch day: the short version',
    );
    await expect(outgoing.getByTestId(`preview-${news.id}`).getByTestId('preview-part')).toContainText(
      'Part two: what is new',
    );
    await expect(outgoing.getByTestId('preview-alt').first()).toContainText('The launch poster, in blue');
    await expect(page.locator('.page-head .badge')).toHaveText('Scheduled');
    await step(page, '06-post-scheduled');

    // While the post waits for its minute, the rest of the hour goes on in a second tab; the post
    // page stays open in the first, untouched, and must turn to Posted by itself.
    const tour = await page.context().newPage();
    // Calendar: month entries with time and text; the week fits 1280 px.
    await tour.goto('/calendar');
    const entry = tour.locator('.cal-event').first();
    await expect(entry.locator('.cal-event-time')).toHaveText(/^\d{2}:\d{2}$/);
    await expect(entry.locator('.cal-event-link')).toContainText('Our launch');
    await step(tour, '08-calendar-month');
    await tour.goto('/calendar?view=week');
    await expectNoSidewaysScroll(tour, 'calendar week');
    await step(tour, '09-calendar-week');

    // Queue: a week grid; a day's times copy to the other weekdays.
    await tour.goto('/queue');
    const card = tour.locator('.queue-card').first();
    await card.getByRole('button', { name: 'Add a time on Monday' }).click();
    await card.getByLabel('Monday time 1').fill('08:30');
    await card.getByRole('button', { name: 'Copy times' }).click();
    for (const day of ['Tuesday', 'Wednesday', 'Thursday', 'Friday'])
      await expect(card.getByLabel(`${day} time 1`)).toHaveValue('08:30');
    await card.getByRole('button', { name: 'Save slots' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'Saved 5 slots' })).toBeVisible();
    await step(tour, '10-queue');

    // Feeds: a refused URL keeps what was typed.
    await tour.goto('/feeds');
    await tour.getByLabel('Feed URL').fill('https://my blog.example/feed.xml');
    await tour.getByLabel('Name (optional)').fill('My blog');
    await tour.locator('form[aria-labelledby="add-feed-title"] input[type="checkbox"]').first().check();
    await tour.getByRole('button', { name: 'Add feed' }).click();
    // The server refuses the URL (it does not parse); what was typed stays.
    await expect(tour.locator('.field-error[role="alert"]')).toBeVisible();
    await expect(tour.getByLabel('Feed URL')).toHaveValue('https://my blog.example/feed.xml');
    await expect(tour.getByLabel('Name (optional)')).toHaveValue('My blog');
    await step(tour, '11-feeds');

    // Import: the template downloads with my handles and imports as it is.
    await tour.goto('/posts/import');
    const href = await tour.getByTestId('import-template').getAttribute('href');
    const template = await (await tour.request.get(href!)).text();
    expect(template).toContain('@news|@updates');
    await tour.getByLabel('CSV or JSON file').setInputFiles({
      name: 'template.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(template),
    });
    await tour.getByRole('button', { name: 'Check file' }).click();
    await expect(tour.getByTestId('import-report').locator('tr[data-valid="false"]')).toHaveCount(0);
    await tour.getByRole('button', { name: /^Import \d+ posts?$/ }).click();
    await expect(tour.getByTestId('import-report')).toContainText('Imported');
    await step(tour, '12-import');

    // Settings: the profile keeps what was typed; the MCP address with copy buttons; the API reference.
    await tour.goto('/settings');
    await tour.locator('#profile-name').fill('Dana N.');
    await tour.getByRole('button', { name: 'Save profile' }).click();
    await expect(tour.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();
    await expect(tour.locator('#profile-name')).toHaveValue('Dana N.');
    await expect(tour.locator('#mcp-url')).toHaveValue(`${fresh.url}/mcp`);
    await expect(tour.getByRole('button', { name: 'Copy MCP server address' })).toBeVisible();
    await tour.getByText('Ready-made setup for common assistants').click();
    await expect(tour.getByTestId('mcp-snippet-claude-code')).toContainText(
      `claude mcp add --transport http postwave ${fresh.url}/mcp`,
    );
    await step(tour, '13-settings');

    await tour.getByRole('main').getByRole('link', { name: 'API reference', exact: true }).click();
    await expect(tour).toHaveURL(/\/docs/);
    await expect(tour.getByText('Postwave', { exact: false }).first()).toBeVisible({ timeout: 30_000 });
    await expect(tour.locator('body')).toContainText('posts', { timeout: 30_000 });
    for (const hosted of ['Ask AI', 'Generate MCP', 'Deploy'])
      await expect(tour.getByText(hosted, { exact: true })).toHaveCount(0);
    await tour.screenshot({ path: 'test-results/first-hour/1280x800-14-api-docs.png' });
    await tour.close();

    await expect(page.locator('.page-head .badge')).toHaveText('Posted', { timeout: 220_000 });
    // The composer's "Scheduled" note no longer holds once the post went out.
    await expect(page.getByText('Postwave will publish it at the time you chose')).toHaveCount(0);
    await step(page, '07-post-posted');

    // Signing in with a wrong password keeps the e-mail and logs one line, no stack trace.
    await page.goto('/settings');
    await page.locator('.user-menu summary').click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not my password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('.alert-error')).toContainText('do not match');
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await step(page, '15-signin-wrong-password');
    const log = fresh.output();
    expect(log).toContain('sign_in_refused');
    expect(log).not.toMatch(/\[auth\]\[error\]|CredentialsSignin: /);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/compose/);
  });
});

test.describe('first hour at 390×844 (a phone)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the composer fits, checks sit by the publish button, badges keep their shape', async ({
    page,
    step,
  }) => {
    test.setTimeout(240_000);
    await signUpFirst(page, step, `phone${Date.now()}@example.test`);
    await expectNoSidewaysScroll(page, 'accounts');
    await connect(page, '@news');
    await connect(page, '@updates');
    const badge = page.getByTestId('health-badge').first();
    const box = (await badge.boundingBox())!;
    expect(box.height).toBeLessThan(32);
    expect(box.width).toBeGreaterThan(box.height);
    await step(page, '04-accounts');

    await page.goto('/compose');
    const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
    for (const a of accounts) await page.getByTestId(`chip-${a.id}`).click();
    // Longer than Telegram takes: the reason is next to the publish button, above the previews.
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Too long. '.repeat(420));
    const checks = page.getByTestId('submit-checks');
    await expect(checks).toBeVisible();
    const publish = page.getByRole('button', { name: 'Publish now' });
    await expect(publish).toBeDisabled();
    const checksBox = (await checks.boundingBox())!;
    const publishBox = (await publish.boundingBox())!;
    const previewsBox = (await page.locator('.composer-previews').boundingBox())!;
    expect(publishBox.y - (checksBox.y + checksBox.height)).toBeLessThan(200);
    expect(checksBox.y).toBeLessThan(previewsBox.y);
    await expectNoSidewaysScroll(page, 'composer');
    await step(page, '05-compose');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Short and sweet');
    await expect(checks).toHaveCount(0);
    await expect(publish).toBeEnabled();

    for (const path of ['/queue', '/calendar', '/posts/import', '/settings']) {
      await page.goto(path);
      await expectNoSidewaysScroll(page, path);
      await step(page, `06-${path.slice(1).replaceAll('/', '-')}`);
    }
  });
});
