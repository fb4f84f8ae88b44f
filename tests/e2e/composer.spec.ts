import { sampleJpeg, samplePng } from '@postwave/shared/testing';
import { expectAccessible } from './axe.ts';
import { accountsOf, chans, connectChat, expect, recordPostRequests, test } from './composer-fixtures.ts';
import { chat, selectChip, signUp } from './fixtures.ts';

/*
 * Composer journeys (docs/web-ui.md), one per feature. Each asserts what the page shows and what it
 * sends (the request body, recorded as it leaves the browser) and, where the server already
 * stores it, the saved post.
 */

test('per-account versions: chips tell same-named chats apart, a tab edits one account’s version', async ({
  page,
  telegram,
  shot,
}) => {
  await signUp(page, 'Version Writer');
  for (const c of chans) await connectChat(page, c.handle);
  const [one, two] = (await accountsOf(page)).sort((a, b) =>
    (a.username ?? '').localeCompare(b.username ?? ''),
  );
  await page.goto('/compose');

  // Both chats are titled "Chan": each chip also names the platform and the handle.
  const chipOne = page.getByTestId(`chip-${one!.id}`);
  const chipTwo = page.getByTestId(`chip-${two!.id}`);
  await expect(chipOne).toContainText('Chan');
  await expect(chipOne).toContainText('Telegram · @chan_one');
  await expect(chipTwo).toContainText('Telegram · @chan_two');
  await expect(chipOne.locator('.platform-mark svg')).toHaveCount(1);
  await chipOne.click();
  await chipTwo.click();

  const base = 'A long announcement for everyone, with all the details we have.';
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(base);
  const tabs = page.getByRole('tablist', { name: 'Versions' });
  await expect(tabs.getByRole('tab')).toHaveCount(3);
  await expect(tabs.getByRole('tab', { name: /All accounts/ })).toHaveAttribute('aria-selected', 'true');

  // Keyboard: arrow keys move between tabs and select them.
  await tabs.getByRole('tab', { name: /All accounts/ }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const tabTwo = tabs.getByRole('tab', { name: /chan_two/ });
  await expect(tabTwo).toBeFocused();
  await expect(tabTwo).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel');
  await expect(panel).toContainText('publishes the base post');
  const version = panel.getByRole('textbox', { name: 'Version for Chan' });
  await expect(version).toHaveValue(base);

  await version.fill('Short one.');
  await expect(tabTwo).toContainText('Edited');
  await expect(panel.locator('.version-counter')).toContainText('10 / 4,096');
  await expect(page.getByTestId(`preview-${two!.id}`)).toContainText('Short one.');
  await expect(page.getByTestId(`preview-${one!.id}`)).toContainText(base);

  // Reset to base drops the version; editing again brings it back.
  await panel.getByRole('button', { name: 'Reset to base' }).click();
  await expect(tabTwo).not.toContainText('Edited');
  await expect(version).toHaveValue(base);
  await version.fill('Short one.');
  await shot(page, 'compose-versions');
  await expectAccessible(page, 'compose-versions', { testInfo: test.info(), soft: true });

  // Back to the base post: its counters mark the account with its own version.
  await tabTwo.focus();
  await page.keyboard.press('Home');
  await expect(tabs.getByRole('tab', { name: /All accounts/ })).toBeFocused();
  await expect(page.getByTestId(`counter-${two!.id}`)).toContainText('own version');
  await expect(page.locator('.target').getByText('Ready')).toHaveCount(2);

  const sent = recordPostRequests(page);
  const before = telegram.sent.length;
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
  await expect(page.locator('.page-head .badge')).toHaveText('Posted');
  await shot(page, 'post-versions');
  await expectAccessible(page, 'post-versions', { testInfo: test.info(), soft: true });

  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({
    message: base,
    accountIds: [one!.id, two!.id],
    overrides: { [two!.id]: { message: 'Short one.' } },
  });
  expect(sent[0]!.overrides).not.toHaveProperty(one!.id);
  // The account without a version got the base message.
  const delivered = telegram.sent.slice(before);
  expect(delivered.find((s) => s.chatId === chans[0]!.id)?.text).toBe(base);
  // The account with its own version got that version, and only it.
  expect(delivered.filter((s) => s.chatId === chans[1]!.id).map((s) => s.text)).toEqual(['Short one.']);
});

test('thread: parts after the message, the accounts left out named, previews as a chain', async ({
  page,
  telegram,
  instagram,
  shot,
}) => {
  await signUp(page, 'Thread Writer');
  await connectChat(page, chat.handle);
  await page.locator('button[data-platform="instagram"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  const accounts = await accountsOf(page);
  const tg = accounts.find((a) => a.platform === 'telegram')!;
  const ig = accounts.find((a) => a.platform !== 'telegram')!;
  await page.goto('/compose');

  // Only a platform without threads selected: no thread editor.
  await page.getByTestId(`chip-${ig.id}`).click();
  await expect(page.getByRole('button', { name: 'Add to thread' })).toHaveCount(0);
  await page.getByTestId(`chip-${tg.id}`).click();
  await expect(page.getByTestId('thread-note')).toContainText('will not receive the thread');
  await expect(page.getByTestId('thread-note')).toContainText('(Instagram · @');

  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('1/ Why threads matter');
  await page.getByRole('button', { name: 'Add to thread' }).click();
  await expect(page.getByRole('textbox', { name: 'Thread part 2' })).toBeFocused();
  await page.getByRole('textbox', { name: 'Thread part 2' }).fill('2/ They keep a story together');
  await page.getByRole('button', { name: 'Add to thread' }).click();
  // An empty part blocks publishing until it is written or removed.
  await expect(page.getByText('Thread part 3 is empty')).toBeVisible();
  await page.getByRole('textbox', { name: 'Thread part 3' }).fill('3/ And readers follow along');
  await expect(page.locator('.thread-part .part-counter').first()).toContainText('/ 4,096');

  const preview = page.getByTestId(`preview-${tg.id}`);
  await expect(preview.getByTestId('preview-part')).toHaveCount(2);
  await expect(preview.getByTestId('preview-part').nth(1)).toContainText('3/ And readers follow along');
  await expect(page.getByTestId(`preview-${ig.id}`).getByTestId('preview-part')).toHaveCount(0);
  await shot(page, 'compose-thread');
  await expectAccessible(page, 'compose-thread', { testInfo: test.info(), soft: true });

  // Instagram needs an image; it gets the first message only (a warning, not an error).
  await page
    .getByTestId('media-input')
    .setInputFiles({ name: 'thread.jpg', mimeType: 'image/jpeg', buffer: sampleJpeg() });
  await expect(page.getByTestId('media-item')).toHaveAttribute('data-uploaded', 'true');
  await page.getByRole('textbox', { name: 'Alt text for thread.jpg' }).fill('A chain of three notes');
  await expect(page.getByTestId(`target-${ig.id}`)).toContainText('only the first message is posted');
  await expect(page.locator('.target').getByText('Ready')).toHaveCount(2);
  await expectAccessible(page, 'compose-thread-mixed', { testInfo: test.info(), soft: true });
  const sent = recordPostRequests(page);
  const before = telegram.sent.length;
  const igBefore = instagram.media.length;
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
  await expect(page.locator('.page-head .badge')).toHaveText('Posted', { timeout: 30_000 });
  await shot(page, 'post-thread');
  await expectAccessible(page, 'post-thread', { testInfo: test.info(), soft: true });

  expect(sent[0]).toMatchObject({
    message: '1/ Why threads matter',
    // In the order they were chosen.
    accountIds: [ig.id, tg.id],
    thread: [{ message: '2/ They keep a story together' }, { message: '3/ And readers follow along' }],
  });
  // Telegram got a reply chain: each part answers the message before it.
  const delivered = telegram.sent.slice(before).filter((m) => m.chatId === chat.id);
  expect(delivered.map((m) => m.caption ?? m.text)).toEqual([
    '1/ Why threads matter',
    '2/ They keep a story together',
    '3/ And readers follow along',
  ]);
  expect(delivered[0]!.replyToMessageId).toBeUndefined();
  expect(delivered[1]!.replyToMessageId).toBe(delivered[0]!.messageIds[0]);
  expect(delivered[2]!.replyToMessageId).toBe(delivered[1]!.messageIds[0]);
  // Instagram got the first message only.
  const published = instagram.media.slice(igBefore);
  expect(published.map((m) => m.caption)).toEqual(['1/ Why threads matter']);
  // The post page lists Telegram's parts with their status; Instagram's result has none.
  await expect(page.getByTestId('result-part')).toHaveCount(3);
  await expect(page.getByTestId('result-parts')).toContainText('Part 3');
  await expectAccessible(page, 'post-thread', { testInfo: test.info(), soft: true });
});

test('alt text: each image asks for it, shows a badge while missing, and counts to the smallest limit', async ({
  page,
  x: fakeX,
  shot,
}) => {
  await signUp(page, 'Alt Writer');
  await connectChat(page, chat.handle);
  await page.locator('button[data-platform="x"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  const accounts = await accountsOf(page);
  const tg = accounts.find((a) => a.platform === 'telegram')!;
  const x = accounts.find((a) => a.platform !== 'telegram')!;
  await page.goto('/compose');
  await page.getByTestId(`chip-${tg.id}`).click();
  await page.getByTestId(`chip-${x.id}`).click();

  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Our new office');
  await page
    .getByTestId('media-input')
    .setInputFiles({ name: 'office.png', mimeType: 'image/png', buffer: samplePng() });
  await expect(page.getByTestId('media-item')).toHaveAttribute('data-uploaded', 'true');
  await expect(page.getByTestId('no-alt-text')).toHaveText('No alt text');

  const alt = page.getByRole('textbox', { name: 'Alt text for office.png' });
  await expect(page.locator('.alt-count')).toHaveText('0 / 1,000');
  await alt.fill('y'.repeat(1001));
  await expect(alt).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Shorten the alt text to 1000 characters or fewer.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish now' })).toBeDisabled();

  const description = 'A bright room with six desks and plants by the window';
  await alt.fill(description);
  await expect(page.getByTestId('no-alt-text')).toHaveCount(0);
  await expect(page.locator('.alt-count')).toHaveText(`${description.length} / 1,000`);
  // The preview shows the image with its description.
  await expect(page.getByTestId(`preview-${x.id}`).getByRole('img', { name: description })).toBeVisible();
  await expect(page.locator('.target').getByText('Ready')).toHaveCount(2);
  await shot(page, 'compose-alt-text');
  await expectAccessible(page, 'compose-alt-text', { testInfo: test.info(), soft: true });

  await expectAccessible(page, 'compose-alt-text', { testInfo: test.info(), soft: true });

  const sent = recordPostRequests(page);
  const before = new Set(fakeX.media.keys());
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
  await expect(page.locator('.page-head .badge')).toHaveText('Posted', { timeout: 30_000 });
  const media = (sent[0]!.media as { key: string; altText?: string }[])[0]!;
  expect(media.altText).toBe(description);
  // X received the image with its description as media metadata; the post carries that image.
  const uploaded = [...fakeX.media.values()].filter((m) => !before.has(m.id));
  expect(uploaded.map((m) => m.altText)).toEqual([description]);
  expect(fakeX.posts.at(-1)).toMatchObject({ text: 'Our new office', mediaIds: [uploaded[0]!.id] });
  // The saved post keeps the image and its description.
  const id = new URL(page.url()).pathname.split('/').pop();
  const saved = await (await page.request.get(`/api/v1/posts/${id}`)).json();
  expect(saved.media[0].key).toBe(media.key);
  expect(saved.media[0].altText).toBe(description);
  await shot(page, 'post-alt-text');
  await expectAccessible(page, 'post-alt-text', { testInfo: test.info(), soft: true });
});

test('first comment: the option from the platform’s manifest is posted right after the post', async ({
  page,
  x,
  shot,
}) => {
  await signUp(page, 'Comment Writer');
  await page.goto('/accounts');
  await page.locator('button[data-platform="x"]').click();
  await expect(page).toHaveURL(/\/accounts\?connected=/);
  const [account] = await accountsOf(page);
  await page.goto('/compose');
  // The only account is chosen already.
  await expect(page.getByTestId(`chip-${account!.id}`)).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Release notes are out');
  const target = page.getByTestId(`target-${account!.id}`);
  const comment = target.getByRole('textbox', { name: 'First comment' });
  await comment.fill('Full changelog: https://example.com/changelog');
  await expect(page.getByTestId(`preview-${account!.id}`)).toContainText('Full changelog');
  await expect(target.getByText('Ready')).toBeVisible();
  await shot(page, 'compose-first-comment');
  await expectAccessible(page, 'compose-first-comment', { testInfo: test.info(), soft: true });

  const sent = recordPostRequests(page);
  const before = x.posts.length;
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+/);
  await expect(page.locator('.page-head .badge')).toHaveText('Posted', { timeout: 30_000 });
  expect(sent[0]).toMatchObject({
    accountOptions: { [account!.id]: { firstComment: 'Full changelog: https://example.com/changelog' } },
  });
  // On X the first comment is a reply to the post.
  const [post, reply] = x.posts.slice(before);
  expect(post?.text).toBe('Release notes are out');
  expect(reply).toMatchObject({ text: 'Full changelog: https://example.com/changelog', replyTo: post!.id });
  expect(x.posts).toHaveLength(before + 2);
  await shot(page, 'post-first-comment');
  await expectAccessible(page, 'post-first-comment', { testInfo: test.info(), soft: true });
});

test('preview: a link card from the page’s Open Graph tags, none for a refused host, overflow marked', async ({
  page,
  site,
  blockedHits,
  shot,
}) => {
  await signUp(page, 'Preview Writer');
  await connectChat(page, chat.handle);
  const [tg] = await accountsOf(page);
  await page.goto('/compose');
  const preview = page.getByTestId(`preview-${tg!.id}`);
  const message = page.getByRole('textbox', { name: 'Message', exact: true });

  await message.fill(`Read the launch notes: ${site.url}.`);
  const card = preview.getByTestId('link-card');
  await expect(card).toContainText('Postwave launches threads');
  await expect(card).toContainText('Write once, thread everywhere.');
  await expect(card).toContainText('Postwave Blog');
  await expect(card).toHaveAttribute('href', site.url);
  await expect(preview).toContainText('Postwave News');
  await expect(preview.locator('.preview-counter')).toContainText(`/ 4,096`);
  await shot(page, 'compose-link-card');
  await expectAccessible(page, 'compose-link-card', { testInfo: test.info(), soft: true });

  // A loopback host the operator did not allow: the server refuses, the preview shows no card.
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/v1/link-preview') && r.status() === 422);
  await message.fill(`Internal: ${site.blockedUrl}`);
  await refused;
  await expect(preview.getByTestId('link-card')).toHaveCount(0);
  expect(blockedHits).toEqual([]);

  // Over the platform's limit: the part past it is marked, and publishing is blocked.
  await message.fill(`${'a'.repeat(4090)} the end of it`);
  // 4,090 + 6 characters fit; the rest of "the end of it" is past the limit.
  await expect(preview.getByTestId('preview-overflow')).toHaveText(/over the limit from here:\) nd of it$/);
  await expect(preview.locator('.preview-counter')).toContainText('4,104 / 4,096');
  await expect(page.getByRole('button', { name: 'Publish now' })).toBeDisabled();
  await shot(page, 'compose-overflow');
  await expectAccessible(page, 'compose-overflow', { testInfo: test.info(), soft: true });
});

test('no account chosen: Save draft is aria-disabled and says why, once; it sends nothing', async ({
  page,
}) => {
  await signUp(page, 'Accountless Writer');
  for (const c of chans) await connectChat(page, c.handle);
  const sent = recordPostRequests(page);
  await page.goto('/compose');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('An idea for later');

  // Like Publish, Save draft waits for an account; it keeps the focus and names the reason.
  const save = page.getByRole('button', { name: 'Save draft' });
  await expect(save).toHaveAttribute('aria-disabled', 'true');
  await expect(save).toHaveAccessibleDescription('Choose at least one account.');
  await save.press('Enter');
  await expect(save).toBeFocused();
  await expect(page).toHaveURL(/\/compose$/);
  expect(sent).toEqual([]);
  // Said once, as the reason beside the buttons; no alert repeats it.
  await expect(page.getByText(/Choose at least one account/)).toHaveCount(1);
  await expect(page.locator('.submit-feedback').getByRole('alert')).toHaveCount(0);
  await expectAccessible(page, 'compose-no-account', { testInfo: test.info(), soft: true });

  const [one] = await accountsOf(page);
  await page.getByTestId(`chip-${one!.id}`).click();
  await expect(save).not.toHaveAttribute('aria-disabled', 'true');
  await expect(save).toHaveAccessibleDescription('');
  await save.click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+\?done=draft$/);
  expect(sent).toEqual([expect.objectContaining({ accountIds: [one!.id], postingMode: 'draft' })]);
});

test('blocked, Publish now, Add to queue and Schedule stay in the tab order and say why; pressed, they send nothing', async ({
  page,
}) => {
  await signUp(page, 'Blocked Writer');
  for (const c of chans) await connectChat(page, c.handle);
  const sent = recordPostRequests(page);
  await page.goto('/compose');
  const [one] = await accountsOf(page);
  await selectChip(page.getByTestId(`chip-${one!.id}`));

  // No message yet: the actions wait, focusable (a disabled button is skipped by Tab), with the reason.
  const reason = 'Write a message or add media.';
  for (const name of ['Add to queue', 'Publish now']) {
    const action = page.getByRole('button', { name, exact: true });
    await expect(action).toHaveAttribute('aria-disabled', 'true');
    await expect(action).toHaveAccessibleDescription(reason);
    await action.focus();
    await action.press('Enter');
    await expect(action).toBeFocused();
  }
  await page.getByRole('button', { name: 'Schedule…' }).click();
  const schedule = page.getByRole('button', { name: 'Schedule', exact: true });
  await expect(schedule).toHaveAttribute('aria-disabled', 'true');
  await expect(schedule).toHaveAccessibleDescription(reason);
  expect(sent).toEqual([]);

  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Ready to go');
  const publish = page.getByRole('button', { name: 'Publish now' });
  await expect(publish).not.toHaveAttribute('aria-disabled', 'true');
  await expect(publish).toHaveAccessibleDescription('');
  await expectAccessible(page, 'compose-blocked-actions', { testInfo: test.info(), soft: true });
});

test('a full thread: Add to thread stays focusable and says why it adds no more', async ({ page }) => {
  await signUp(page, 'Long Threader');
  await connectChat(page, chat.handle);
  const [tg] = await accountsOf(page);
  await page.goto('/compose');
  await selectChip(page.getByTestId(`chip-${tg!.id}`));
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('1/ A long story');
  const add = page.getByRole('button', { name: 'Add to thread' });
  await expect(add).toBeVisible();
  for (let part = 2; part <= 26; part++) {
    await add.click();
    await expect(page.getByRole('textbox', { name: `Thread part ${part}` })).toBeFocused();
  }
  await expect(add).toHaveAttribute('aria-disabled', 'true');
  await expect(add).toHaveAccessibleDescription('A thread has at most 26 parts.');
  await add.focus();
  await add.press('Enter');
  await expect(add).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Thread part 27' })).toHaveCount(0);
});
