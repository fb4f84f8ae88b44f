import { samplePng } from '@postwave/shared/testing';
import { expectAccessible } from './axe.ts';
import { botToken, chat, connectTelegram, expect, signUp, test } from './fixtures.ts';

/*
 * What a new user hit on the way in (issue 14), and account health (issue 15) as the user sees it.
 * The browser fixtures configure no GitHub, Google or YouTube client, so those must be explained,
 * never offered as a button that ends on a JSON error.
 */

test.describe.configure({ mode: 'serial' });

test('sign-in providers and platforms that are not set up are explained, never a JSON error', async ({
  page,
  shot,
}) => {
  await page.goto('/signin');
  await expect(page.getByRole('button', { name: /Continue with Google/ })).toHaveCount(0);
  const other = page.getByTestId('other-sign-in-methods');
  // Named for the person signing in; the operator's variables are on /setup (issue 30).
  await expect(other).toContainText('Google');
  await expect(other).toContainText('GitHub');
  await expect(other).not.toContainText('GOOGLE_CLIENT_ID');
  await expect(other.getByRole('link', { name: /how to turn them on/ })).toHaveAttribute(
    'href',
    '/setup#setup-sign-in',
  );
  await shot(page, 'new-user-signin-methods');
  await expectAccessible(page, 'new-user-signin-methods', { testInfo: test.info(), soft: true });

  // An old link to the Google sign-in lands on the setup page, not on an error document.
  await page.goto('/api/auth/signin/google');
  await expect(page).toHaveURL(/\/setup\?missing=google/);
  await expect(page.getByTestId('setup-missing')).toContainText('Google is not set up on this server');
  await expect(page.locator('#google')).toContainText('GOOGLE_CLIENT_SECRET');
  await expect(page.locator('#google')).toContainText('/api/auth/callback/google');
  await shot(page, 'new-user-setup-page');
  await expectAccessible(page, 'new-user-setup-missing', { testInfo: test.info() });

  await signUp(page, 'New User');
  // The empty state's icon is an SVG: no character that could render as a missing-glyph box.
  const icon = page.locator('.empty .empty-icon');
  await expect(icon.locator('svg')).toBeVisible();
  expect((await icon.textContent())?.trim()).toBe('');
  await expect(page.locator('.brand-mark svg')).toBeVisible();

  // Only platforms this server can connect are buttons; the others are named with their settings.
  await expect(page.getByRole('button', { name: 'Connect with Google' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Telegram' })).toBeVisible();
  const notSetUp = page.getByTestId('platforms-not-set-up');
  await notSetUp.locator('summary').click();
  await expect(notSetUp).toContainText('YouTube');
  await expect(notSetUp).toContainText('GOOGLE_CLIENT_ID');
  await shot(page, 'new-user-accounts-picker');
  await expectAccessible(page, 'new-user-accounts-picker', { testInfo: test.info() });
  await notSetUp.getByRole('link', { name: 'how to set it up' }).first().click();
  await expect(page).toHaveURL(/\/setup#/);

  // A direct hit on the connect URL of an unconfigured platform: the setup page again.
  await page.goto('/api/v1/accounts/connect/youtube');
  await expect(page).toHaveURL(/\/setup\?missing=youtube/);
  await expect(page.getByTestId('setup-missing')).toContainText('YouTube is not set up on this server');

  // Settings → Sign-in methods names the providers this server lacks, with how to turn them on.
  await page.goto('/settings');
  const unavailable = page.getByTestId('sign-in-unavailable');
  await expect(unavailable).toHaveCount(2);
  await expect(unavailable.first()).toContainText('GITHUB_CLIENT_ID');
  await page.locator('#sign-in-methods').scrollIntoViewIfNeeded();
  await shot(page, 'new-user-settings-sign-in-methods');
  await expectAccessible(page, 'new-user-settings-sign-in-methods', { testInfo: test.info(), soft: true });
});

test('a page opened at another origin than APP_URL warns, and the upload says it fell back', async ({
  browser,
  app,
  shot,
}) => {
  // APP_URL is http://127.0.0.1:<port>; the user typed localhost.
  const elsewhere = app.url.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  try {
    // Signed in at APP_URL (sign-in redirects there), the user then opens the app at localhost with
    // the same session, as a browser does that was signed in at localhost before.
    await signUp(page, 'Localhost User');
    const cookies = await context.cookies(app.url);
    await context.addCookies(
      cookies.map(({ name, value, path, httpOnly, secure, sameSite, expires }) => ({
        name,
        value,
        path,
        httpOnly,
        secure,
        sameSite,
        expires,
        domain: 'localhost',
      })),
    );
    await page.goto(`${elsewhere}/accounts`);
    const banner = page.getByTestId('origin-warning');
    await expect(banner).toContainText(`This page is open at ${new URL(elsewhere).origin}`);
    await expect(banner).toContainText(new URL(app.url).origin);
    await expect(banner.getByRole('link', { name: /Open this page at/ })).toHaveAttribute(
      'href',
      new RegExp(`^${new URL(app.url).origin}/accounts`),
    );
    await shot(page, 'new-user-origin-banner');
    await expectAccessible(page, 'new-user-origin-banner', { testInfo: test.info(), soft: true });

    // connectTelegram's relative URLs go to APP_URL; stay at localhost instead.
    await page.getByRole('button', { name: 'Telegram' }).click();
    await page.getByLabel('Bot token').fill(botToken);
    await page.getByLabel('Channel or chat').fill(chat.handle);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByTestId('account-card')).toHaveCount(1);
    await page.goto(`${elsewhere}/compose`);
    await expect(page.getByTestId('origin-warning')).toBeVisible();
    await page
      .getByTestId('media-input')
      .setInputFiles({ name: 'launch.png', mimeType: 'image/png', buffer: samplePng() });
    // The direct PUT to APP_URL is blocked by CORS: the page says so, then the server upload works.
    await expect(page.getByTestId('upload-notices')).toContainText('blocked the direct upload of launch.png');
    await expect(page.getByTestId('media-item')).toHaveAttribute('data-uploaded', 'true');
    await shot(page, 'new-user-upload-fallback-notice');
    await expectAccessible(page, 'new-user-upload-fallback-notice', { testInfo: test.info(), soft: true });
    expect(app.output()).toContain(`A page at ${new URL(elsewhere).origin} is using the app`);
  } finally {
    await context.close();
  }
});

test('an account the platform stops accepting is badged, and its scheduled posts are flagged', async ({
  page,
  app,
  telegram,
  shot,
}) => {
  await signUp(page, 'Health Watcher');
  await connectTelegram(page);
  await expect(page.getByTestId('health-badge')).toHaveText('Working');
  const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
  const accountIds = [accounts[0].id];
  const scheduled = await page.request.post('/api/v1/posts', {
    headers: { origin: app.url },
    data: {
      message: 'Next week’s announcement',
      accountIds,
      postingMode: 'schedule',
      scheduledAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
    },
  });
  expect(scheduled.status()).toBe(201);
  const post = await scheduled.json();

  // The bot is removed from the chat owner's side: Telegram now answers 401 to it.
  telegram.inject({
    path: new RegExp(`/bot${botToken}/sendMessage$`),
    status: 401,
    json: { ok: false, error_code: 401, description: 'Unauthorized' },
    times: 1,
  });
  const now = await page.request.post('/api/v1/posts', {
    headers: { origin: app.url },
    data: { message: 'Right now', accountIds, postingMode: 'now' },
  });
  expect([200, 201, 502]).toContain(now.status());

  await page.goto('/accounts');
  const card = page.getByTestId('account-card');
  await expect(card.getByTestId('health-badge')).toHaveText('Needs reconnect');
  await expect(card.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  await expect(card.getByTestId('reconnect-hint')).toBeVisible();
  await shot(page, 'health-accounts-needs-reconnect');
  await expectAccessible(page, 'health-accounts-needs-reconnect', { testInfo: test.info() });

  await page.goto('/posts');
  await expect(page.getByTestId('post-at-risk')).toContainText('needs reconnect');
  await shot(page, 'health-posts-at-risk');
  await expectAccessible(page, 'health-posts-at-risk', { testInfo: test.info(), soft: true });
  await page.goto(`/posts/${post.id}`);
  await expect(page.getByTestId('accounts-at-risk')).toContainText('needs reconnect');
  await expect(
    page.getByTestId('accounts-at-risk').getByRole('link', { name: 'Check your accounts' }),
  ).toBeVisible();
  await shot(page, 'health-post-at-risk');
  await expectAccessible(page, 'health-post-at-risk', { testInfo: test.info() });
});
