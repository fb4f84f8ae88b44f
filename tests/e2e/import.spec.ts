import { expectAccessible } from './axe.ts';
import { chat, connectTelegram, expect, signUp, test } from './fixtures.ts';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

function csvFile(name: string, rows: string[][]) {
  const text = rows
    .map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(','))
    .join('\n');
  return { name, mimeType: 'text/csv', buffer: Buffer.from(`${text}\n`) };
}

test('import a CSV: the dry run shows each row’s errors, the fixed file imports every post', async ({
  page,
  shot,
}) => {
  await signUp(page, 'Importer');
  await connectTelegram(page);
  await page.goto('/posts');
  await page.getByRole('link', { name: 'Import / export' }).click();
  await expect(page.getByRole('heading', { name: 'Import and export', level: 1 })).toBeVisible();

  const header = ['scheduledAt', 'message', 'accounts'];
  await page
    .getByLabel('CSV or JSON file')
    .setInputFiles(
      csvFile('posts.csv', [
        header,
        [inDays(2), 'Launch day, part one', chat.handle],
        ['tomorrow-ish', 'A bad date', chat.handle],
        [inDays(3), 'To nowhere', '@nobody'],
      ]),
    );
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'rows have errors' })).toContainText(
    '2 of 3 rows have errors. Nothing was imported',
  );
  const report = page.getByTestId('import-report');
  await expect(report.getByRole('row')).toHaveCount(4);
  await expect(report.getByRole('row', { name: /^2 / })).toContainText('invalid_datetime');
  await expect(report.getByRole('row', { name: /^3 / })).toContainText('account_not_found');
  await expect(page.getByRole('button', { name: /^Import \d+ posts?$/ })).toHaveCount(0);
  await shot(page, 'import-dry-run-errors');
  await expectAccessible(page, 'import-dry-run-errors', { testInfo: test.info(), soft: true });

  await page
    .getByLabel('CSV or JSON file')
    .setInputFiles(
      csvFile('posts-fixed.csv', [
        header,
        [inDays(2), 'Launch day, part one', chat.handle],
        [inDays(3), 'Launch day, "part two"', chat.handle],
        ['', 'A draft to finish later', chat.handle],
      ]),
    );
  // By keyboard: Check file is aria-disabled while it works, so it keeps the focus.
  const checkFile = page.getByRole('button', { name: 'Check file' });
  await checkFile.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'valid' })).toContainText('All 3 rows are valid.');
  await expect(checkFile).toBeFocused();
  await shot(page, 'import-dry-run-valid');
  await expectAccessible(page, 'import-dry-run-valid', { testInfo: test.info(), soft: true });
  await page.getByRole('button', { name: 'Import 3 posts' }).press('Enter');
  const imported = page.getByRole('status').filter({ hasText: 'Imported' });
  await expect(imported).toContainText('Imported 3 posts.');
  // The Import button is gone: its focus went to the outcome, not <body>.
  await expect(imported).toBeFocused();
  await expect(report.getByText('Imported')).toHaveCount(3);
  await shot(page, 'import-committed');
  await expectAccessible(page, 'import-committed', { testInfo: test.info(), soft: true });

  await page.getByRole('link', { name: 'See scheduled posts' }).click();
  await expect(page.getByTestId('post-row')).toHaveCount(2);
  await expect(page.getByTestId('post-row').filter({ hasText: 'Launch day, "part two"' })).toBeVisible();
  await shot(page, 'import-scheduled-posts');
  await expectAccessible(page, 'import-scheduled-posts', { testInfo: test.info(), soft: true });
  await page.goto('/posts?status=draft');
  await expect(page.getByTestId('post-row')).toHaveCount(1);

  // Export: the form downloads the posts as a CSV file.
  await page.goto('/posts/import');
  // Reversed dates are refused in place (the field-error pattern), never a raw problem page.
  const from = page.getByLabel('From (UTC)');
  const until = page.getByLabel('Until, not including (UTC)');
  await from.fill('2027-02-01');
  await until.fill('2027-01-01');
  await page.getByRole('button', { name: 'Download export' }).click();
  await expect(until).toBeFocused();
  await expect(until).toHaveAttribute('aria-invalid', 'true');
  await expect(until).toHaveAccessibleDescription('Choose an Until date after the From date.');
  await expect(page).toHaveURL(/\/posts\/import$/);
  await from.fill('');
  await until.fill('');
  await expect(until).not.toHaveAttribute('aria-invalid');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^postwave-posts-.*\.csv$/);
  const text = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(text).toString('utf8')).toContain('"Launch day, ""part two"""');
});

test('feeds page: add a feed for an account, see its first check', async ({ page, shot }) => {
  await signUp(page, 'Reader');
  await connectTelegram(page);
  await page.getByRole('link', { name: 'Feeds' }).click();
  await expect(page.getByRole('heading', { name: 'Feeds', level: 1 })).toBeVisible();
  // Errors sit under their fields (aria-invalid, described by the error); the first takes the focus.
  const feedUrl = page.getByLabel('Feed URL');
  await feedUrl.fill('not a url');
  await page.getByRole('button', { name: 'Add feed' }).press('Enter');
  await expect(feedUrl).toBeFocused();
  await expect(feedUrl).toHaveAttribute('aria-invalid', 'true');
  await expect(feedUrl).toHaveAccessibleDescription('Enter the feed’s http or https URL.');
  await expect(page.getByText('Choose at least one account to post to.')).toBeVisible();
  await feedUrl.fill('https://feeds.invalid/rss.xml');
  await page.getByLabel('Name (optional)').fill('Company blog');
  await page.getByRole('group', { name: 'Post to' }).getByRole('checkbox').first().check();
  const addFeed = page.getByRole('button', { name: 'Add feed' });
  await addFeed.press('Enter');
  // No network in tests: the first check fails, the feed is kept and will be retried.
  await expect(page.getByRole('status')).toContainText('Feed added');
  await expect(addFeed).toBeFocused();
  await expect(feedUrl).not.toHaveAttribute('aria-invalid');
  await expect(page.getByRole('row', { name: /Company blog/ })).toBeVisible();
  await shot(page, 'feeds');
  await expectAccessible(page, 'feeds', { testInfo: test.info(), soft: true });
});
