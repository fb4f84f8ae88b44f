import { sampleMp4 } from '@postwave/shared/testing';
import { expectAccessible } from './axe.ts';
import { expect, signUp, test } from './fixtures.ts';

test('a scheduled video post shows, per account, that its media was uploaded ahead of time', async ({
  page,
  baseURL,
  shot,
}) => {
  await signUp(page, 'Hedy Lamarr');
  await page.locator('button[data-platform="x"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  const accountId = new URL(page.url()).searchParams.get('connected')!;

  // The session's API: upload a video and schedule it a few minutes ahead (inside the staging lead).
  const origin = { origin: baseURL! };
  const upload = await page.request.post('/api/v1/upload', {
    headers: origin,
    multipart: { file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: sampleMp4() } },
  });
  expect(upload.status()).toBe(201);
  const { media } = await upload.json();
  const created = await page.request.post('/api/v1/posts', {
    headers: origin,
    data: {
      message: 'Premiere tonight',
      accountIds: [accountId],
      media: [media],
      postingMode: 'schedule',
      scheduledAt: new Date(Date.now() + 5 * 60_000).toISOString(),
    },
  });
  expect(created.status()).toBe(201);
  const post = await created.json();

  await expect(async () => {
    await page.goto(`/posts/${post.id}`);
    await expect(page.getByTestId('staging')).toHaveAttribute('data-staging', 'staged', { timeout: 500 });
  }).toPass({ timeout: 30_000 });
  const result = page.getByTestId('result');
  await expect(result).toContainText('Media uploaded ahead of time');
  await expect(result).toContainText('only the final step happens at the scheduled time');
  await shot(page, 'post-staged');
  await expectAccessible(page, 'post-staged', { testInfo: test.info(), soft: true });

  // Editing the message clears the staged upload; the page no longer claims it is staged.
  const edited = await page.request.patch(`/api/v1/posts/${post.id}`, {
    headers: origin,
    data: { message: 'Premiere tonight, 8 pm' },
  });
  expect(edited.status()).toBe(200);
  expect(['staging', undefined]).toContain((await edited.json()).staging[0]?.status);
});
