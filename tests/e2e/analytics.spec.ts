import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('analytics: a post’s figures after a refresh, the analytics page with its chart as a table, axe-clean', async ({
  page,
  app,
  x,
  shot,
}) => {
  await signUp(page, 'Figure Reader');
  await connectTelegram(page);
  // X through the API with the browser's session (the consent round trip has its own journey).
  const origin = { origin: app.url };
  const account = await page.request.post('/api/v1/accounts', {
    headers: origin,
    data: { platform: 'x', credentials: x.credentials() },
  });
  expect(account.status()).toBe(201);
  const accountId = (await account.json()).id as string;
  const created = await page.request.post('/api/v1/posts', {
    headers: origin,
    data: { message: 'Numbers, please', accountIds: [accountId], postingMode: 'now' },
  });
  const post = await created.json();
  expect(post.status).toBe('posted');
  x.figures.set(post.results[0].platformPostId, { like_count: 7, retweet_count: 2, impression_count: 300 });

  await page.goto(`/posts/${post.id}`);
  const metrics = page.getByTestId('post-metrics');
  await expect(metrics.getByText('not collected yet')).toBeVisible();
  // By keyboard: the button is aria-disabled while it works, so it keeps the focus.
  const refresh = metrics.getByRole('button', { name: 'Refresh figures' });
  await refresh.press('Enter');
  await expect(metrics.getByRole('status')).toHaveText('Figures updated.');
  await expect(refresh).toBeFocused();
  await expect(metrics.getByRole('row', { name: 'Likes 7' })).toBeVisible();
  await expect(metrics.getByRole('row', { name: 'Engagement 9' })).toBeVisible();
  await shot(page, 'post-metrics');
  await expectAccessible(page, 'post-metrics', { testInfo: test.info() });

  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  const totals = page.getByTestId('totals');
  await expect(totals.getByText('Engagement')).toBeVisible();
  await expect(totals).toContainText('300');
  await expect(page.getByTestId('daily-chart').locator('svg').first()).toBeVisible();
  // The chart's figures, as the table screen readers get.
  const data = page.getByTestId('daily-chart-data');
  await expect(data.locator('tbody tr')).toHaveCount(30);
  await expect(data.locator('tbody tr').last().locator('td')).toHaveText(['1', '9']);
  // The drawing names its two series and draws the only day with engagement (a line of one point).
  const legend = page.getByTestId('daily-chart').locator('.recharts-legend-item');
  await expect(legend).toHaveCount(2);
  await expect(legend.filter({ hasText: 'Posts' })).toHaveCount(1);
  await expect(legend.filter({ hasText: 'Engagement' })).toHaveCount(1);
  await expect(page.getByTestId('daily-chart').locator('.recharts-line-dot')).toHaveCount(1);
  // An account's name in the table reads as written, not as an uppercase column title.
  await expect(page.getByTestId('per-account').locator('tbody th').first()).toHaveCSS(
    'text-transform',
    'none',
  );
  await expect(page.getByTestId('per-account').getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('top-posts').getByRole('link', { name: 'Numbers, please' })).toBeVisible();
  await expect(page.getByTestId('best-times-empty')).toBeVisible();
  await shot(page, 'analytics');
  await expectAccessible(page, 'analytics', { testInfo: test.info() });
  // On a phone the tables scroll inside their regions; the page itself never scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 860 });

  // The filter narrows to one account: the Telegram channel has posted nothing.
  await page.getByRole('checkbox', { name: /\(Telegram\)/ }).check();
  await page.getByRole('button', { name: 'Show', exact: true }).first().click();
  await expect(page.getByText('Nothing was posted in this range.')).toBeVisible();

  // A post only to networks without post figures offers nothing to refresh.
  const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
  const telegramId = accounts.find((a: { platform: string }) => a.platform === 'telegram').id as string;
  const quiet = await (
    await page.request.post('/api/v1/posts', {
      headers: origin,
      data: { message: 'No numbers here', accountIds: [telegramId], postingMode: 'now' },
    })
  ).json();
  await page.goto(`/posts/${quiet.id}`);
  const none = page.getByTestId('post-metrics');
  await expect(none.getByText('This platform reports no figures for posts.')).toBeVisible();
  await expect(none.getByRole('button', { name: 'Refresh figures' })).toHaveCount(0);
});
