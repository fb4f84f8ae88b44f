import sharp from 'sharp';
import { videoOf } from '../../web/test/helpers/media.ts';
import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

/**
 * The media library in the browser (docs/media-library.md): files uploaded in the composer are in
 * the library; find one by search, describe it (alt text, tags) with the keyboard, start a new post
 * with it (the composer gets the library's alt text), and see deleting refused while the draft uses
 * it. axe-clean on a desktop and at 390 px.
 */
test('media library: upload, search, edit alt text, use in a new post, delete refused while used', async ({
  page,
  shot,
}) => {
  await signUp(page, 'Dorothea Lange');
  await connectTelegram(page);

  const picture = (red: number) =>
    sharp({ create: { width: 800, height: 600, channels: 3, background: { r: red, g: 90, b: 160 } } });
  const png = await picture(20).png().toBuffer();
  const jpeg = await picture(200).jpeg().toBuffer();

  // Uploaded in the composer: both land in the library without saving a post.
  await page.goto('/compose');
  const input = page.getByTestId('media-input');
  await input.setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByTestId('media-item').first()).toHaveAttribute('data-uploaded', 'true');
  await input.setInputFiles({ name: 'meadow.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(page.getByTestId('media-item').nth(1)).toHaveAttribute('data-uploaded', 'true');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
  await expect(page).toHaveURL(/\/media$/);
  await expect(page.getByRole('heading', { name: 'Media library', level: 1 })).toBeVisible();
  const grid = page.getByRole('list', { name: 'Media files' });
  await expect(grid.getByRole('listitem', { name: /\.(png|jpg)$/ })).toHaveCount(2);
  await expect(grid.locator('.media-thumb img')).toHaveCount(2);
  await expectAccessible(page, 'media-library', { testInfo: test.info(), soft: true });

  // Search with the keyboard: type, Enter.
  const search = page.getByRole('searchbox', { name: 'Search by name, alt text or tag' });
  await search.fill('harb');
  await search.press('Enter');
  await expect(page.getByRole('status')).toHaveText('1 file shown.');
  const tile = grid.getByRole('listitem', { name: 'harbour.png' });
  await expect(tile).toBeVisible();
  await expect(grid.getByRole('listitem', { name: 'meadow.jpg' })).toHaveCount(0);

  // Describe it: the form opens in place, Save returns focus to Edit.
  await tile.getByRole('button', { name: 'Edit harbour.png' }).click();
  // A blank file name: the error under the field, which takes the focus.
  const fileName = tile.getByRole('textbox', { name: 'File name' });
  await fileName.fill('');
  await tile.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(fileName).toBeFocused();
  await expect(fileName).toHaveAttribute('aria-invalid', 'true');
  await expect(fileName).toHaveAccessibleDescription('Give the file a name.');
  await fileName.fill('harbour.png');
  const description = 'Fishing boats moored in a grey harbour at dawn';
  await tile.getByRole('textbox', { name: 'Alt text' }).fill(description);
  await tile.getByRole('textbox', { name: 'Tags' }).fill('boats, dawn');
  await tile.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(tile.getByText(description)).toBeVisible();
  await expect(tile.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['boats', 'dawn']);
  await expect(tile.getByRole('button', { name: 'Edit harbour.png' })).toBeFocused();
  await expect(tile.getByRole('img', { name: description })).toBeVisible();

  // A tag finds it too; the kind filter narrows the grid.
  // By the Search button: aria-disabled while it loads, so it keeps the focus.
  await search.fill('dawn');
  const searchButton = page.getByRole('button', { name: 'Search', exact: true });
  await searchButton.press('Enter');
  await expect(grid.getByRole('listitem', { name: 'harbour.png' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('1 file shown.');
  await expect(searchButton).toBeFocused();
  await search.fill('');
  await page.getByLabel('Kind').selectOption('video');
  await expect(page.getByRole('heading', { name: 'No media match' })).toBeVisible();
  await page.getByLabel('Kind').selectOption('');
  await expect(grid.getByRole('listitem', { name: /\.(png|jpg)$/ })).toHaveCount(2);
  await shot(page, 'media-library-edited');

  // Use it in a new post: the composer opens with the file and the library's alt text.
  await grid
    .getByRole('listitem', { name: 'harbour.png' })
    .getByRole('link', { name: 'Use in a new post (harbour.png)' })
    .click();
  await expect(page).toHaveURL(/\/compose\?media=[0-9a-f-]+$/);
  await expect(page.getByTestId('media-item')).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Alt text for harbour.png' })).toHaveValue(description);
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Morning at the harbour');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
  const postId = new URL(page.url()).pathname.split('/')[2];
  const saved = await (await page.request.get(`/api/v1/posts/${postId}`)).json();
  expect(saved.media[0].altText).toBe(description);

  // Deleting is refused while the draft uses it, with the reason in the dialog.
  await page.goto('/media');
  const used = page.getByRole('list', { name: 'Media files' }).getByRole('listitem', { name: 'harbour.png' });
  await expect(used).toContainText('used by 1 post');
  await used.getByRole('button', { name: 'Delete harbour.png' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete harbour.png?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog.getByRole('alert')).toContainText('not published yet (draft)');
  await expectAccessible(page, 'media-library-delete-refused', { testInfo: test.info(), soft: true });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(used).toBeVisible();

  // The unused file can go.
  const meadow = page
    .getByRole('list', { name: 'Media files' })
    .getByRole('listitem', { name: 'meadow.jpg' });
  await meadow.getByRole('button', { name: 'Delete meadow.jpg' }).click();
  await page
    .getByRole('dialog', { name: 'Delete meadow.jpg?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(meadow).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('meadow.jpg deleted.');
  // Its card went with its Delete button: the remaining card's first action has the focus.
  await expect(used.locator(':focus')).toHaveCount(1);

  // A phone: one column, nothing wider than the screen, still accessible.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(
    page.getByRole('list', { name: 'Media files' }).getByRole('listitem', { name: /\.(png|jpg)$/ }),
  ).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'media-library-phone');
  await expectAccessible(page, 'media-library-phone', { testInfo: test.info(), soft: true });
});

/** A video's poster in the library (the Scheduler's ffmpeg, docs/media-library.md#thumbnails-and-posters). */
test('media library: a video shows its poster and its length', async ({ page, shot }) => {
  await signUp(page, 'Agnès Varda');
  await connectTelegram(page);
  await page.goto('/compose');
  await page
    .getByTestId('media-input')
    .setInputFiles({ name: 'beach.mp4', mimeType: 'video/mp4', buffer: videoOf('mp4', 2) });
  await expect(page.getByTestId('media-item').first()).toHaveAttribute('data-uploaded', 'true');

  await page.goto('/media');
  await page.getByLabel('Kind').selectOption('video');
  const tile = page.getByRole('list', { name: 'Media files' }).getByRole('listitem', { name: 'beach.mp4' });
  await expect(tile).toContainText('Video');
  await expect(tile).toContainText('320×180 · 0:02');
  const poster = tile.locator('.media-thumb img');
  await expect(poster).toBeVisible();
  expect(await poster.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await shot(page, 'media-library-video');
  await expectAccessible(page, 'media-library-video', { testInfo: test.info(), soft: true });
});

/**
 * "Show more" (48 files a page) hands the focus to the first file it brought, both while more
 * remain and when the last page takes the button away (the focus must not fall to <body>).
 */
test('media library: "Show more" focuses the first file it brought', async ({ page, baseURL }) => {
  await signUp(page, 'Berenice Abbott');
  const origin = { origin: baseURL! };
  const upload = async (i: number) => {
    const buffer = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: i, g: 90, b: 160 } },
    })
      .png()
      .toBuffer();
    const res = await page.request.post('/api/v1/upload', {
      headers: origin,
      multipart: { file: { name: `frame-${String(i).padStart(3, '0')}.png`, mimeType: 'image/png', buffer } },
    });
    expect(res.status()).toBe(201);
  };
  // Two full pages and one file more: three pages.
  for (let i = 0; i < 97; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, 97 - i) }, (_, k) => upload(i + k)));
  }

  await page.goto('/media');
  const tiles = page.getByRole('list', { name: 'Media files' }).getByRole('listitem', { name: /\.png$/ });
  await expect(tiles).toHaveCount(48);
  const more = page.getByRole('button', { name: 'Show more' });
  await more.press('Enter');
  await expect(tiles).toHaveCount(96);
  await expect(tiles.nth(48).getByRole('heading')).toBeFocused();
  await expect(more).toBeVisible();

  await more.press('Enter');
  await expect(tiles).toHaveCount(97);
  await expect(more).toHaveCount(0);
  await expect(tiles.nth(96).getByRole('heading')).toBeFocused();
});
