import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

/**
 * The composer's library (docs/library.md), keyboard first: snippets and a template made on the
 * Templates & snippets page, a new post from the template, the account's default signature
 * inserted when it is picked (and taken out when unpicked), snippets inserted with `/` and with
 * the "Insert snippet" button, and "Save as template" from the post. Axe-clean on every page.
 */
test('templates and snippets: make them, post from a template, signatures and the / picker by keyboard', async ({
  page,
  shot,
}) => {
  await signUp(page, 'Grace Hopper');
  await connectTelegram(page);

  await page.goto('/templates');
  await expect(page.getByRole('heading', { name: 'Templates & snippets', level: 1 })).toBeVisible();
  await expect(page.getByText('No templates yet')).toBeVisible();
  const snippets = page.getByRole('region', { name: 'Snippets' });
  // An empty snippet: the error under its field, which takes the focus (docs/web-ui.md, Forms).
  await snippets.getByRole('button', { name: 'Add snippet' }).click();
  await expect(snippets.getByText('Give the snippet a name.')).toBeVisible();
  await expect(snippets.getByLabel('Name')).toBeFocused();
  await expect(snippets.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await snippets.getByLabel('Name').fill('Team signature');
  await snippets.getByLabel('Text').fill('— The Postwave team');
  const defaults = snippets.getByRole('group', { name: 'Default signature of' });
  await defaults.getByRole('checkbox').first().check();
  await snippets.getByRole('button', { name: 'Add snippet' }).click();
  await expect(snippets.getByRole('heading', { name: /Team signature/ })).toBeVisible();
  await expect(snippets.getByText(/Default for/)).toBeVisible();
  // Added: a fresh form for the next one, its name field focused (never <body>).
  await expect(snippets.getByLabel('Name')).toBeFocused();
  await expect(snippets.getByText('Give the snippet a name.')).toHaveCount(0);

  await snippets.getByLabel('Name').fill('Launch tags');
  await snippets.getByLabel('Kind').selectOption({ label: 'Hashtag group' });
  await expect(snippets.getByRole('group', { name: 'Default signature of' })).toHaveCount(0);
  await snippets.getByLabel('Text').fill('#launch #postwave');
  await snippets.getByRole('button', { name: 'Add snippet' }).click();
  await expect(snippets.getByRole('heading', { name: /Launch tags/ })).toBeVisible();

  const templates = page.getByRole('region', { name: 'Templates' });
  // Without a name: the error is said under the Name field, which takes the focus.
  const addTemplate = templates.getByRole('button', { name: 'Add template' });
  const templateName = templates.getByLabel('Name');
  await addTemplate.press('Enter');
  await expect(templateName).toBeFocused();
  await expect(templateName).toHaveAttribute('aria-invalid', 'true');
  await expect(templateName).toHaveAccessibleDescription('Give the template a name.');
  await expect(templates.getByText(/Some fields are not valid|Too small/)).toHaveCount(0);
  await templateName.fill('Weekly update');
  await templates.getByLabel('Message').fill('This week at Postwave:');
  await addTemplate.press('Enter');
  await expect(templates.getByRole('heading', { name: 'Weekly update' })).toBeVisible();
  await expect(addTemplate).toBeFocused();
  await expect(templateName).not.toHaveAttribute('aria-invalid', 'true');
  // Edit gives the name field the focus; Cancel gives it back to Edit.
  const editWeekly = templates.getByRole('button', { name: 'Edit template Weekly update' });
  await editWeekly.press('Enter');
  await expect(templates.getByRole('form', { name: 'Edit template' }).getByLabel('Name')).toBeFocused();
  await templates.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect(editWeekly).toBeFocused();
  await expectAccessible(page, 'library-page', { testInfo: test.info(), soft: true });
  await shot(page, 'library-page');

  // New post from the template, chosen with the keyboard on the compose page.
  await page.goto('/compose');
  const message = page.getByRole('textbox', { name: 'Message', exact: true });
  // The only account is picked from the start: its default signature is already there.
  await expect(message).toHaveValue('— The Postwave team');
  const choice = page.getByLabel('Start from a template');
  await choice.selectOption({ label: 'Weekly update' });
  await page.getByRole('button', { name: 'Use template' }).press('Enter');
  await expect(page).toHaveURL(/\/compose\?template=/);
  await expect(page.getByText('New post from the template “Weekly update”')).toBeVisible();
  await expect(message).toHaveValue('This week at Postwave:');

  // Picking the account inserts its signature, visibly and removably; unpicking takes it out.
  const chip = page.getByRole('button', { name: /Postwave News/ });
  await chip.press('Enter');
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await expect(message).toHaveValue('This week at Postwave:\n\n— The Postwave team');
  await expect(page.getByText('Signature “Team signature” was added')).toBeVisible();
  await chip.press('Enter');
  await expect(message).toHaveValue('This week at Postwave:');
  await chip.press('Enter');
  await expect(message).toHaveValue('This week at Postwave:\n\n— The Postwave team');

  // `/` at the start of a word opens the snippet list; arrows choose, Enter inserts.
  await message.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nTags: /lau');
  const list = page.getByRole('listbox', { name: 'Snippets' });
  await expect(list).toBeVisible();
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option', { name: /Launch tags/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('status').filter({ hasText: '1 snippet' })).toHaveCount(1);
  await expect(message).toHaveAttribute('aria-activedescendant', /.+/);
  await expectAccessible(page, 'compose-snippet-list', { testInfo: test.info(), soft: true });
  await page.keyboard.press('Enter');
  await expect(list).toBeHidden();
  await expect(message).toHaveValue('This week at Postwave:\n\n— The Postwave team\nTags: #launch #postwave');
  await expect(message).toBeFocused();

  // Escape closes the list and keeps what was typed.
  await page.keyboard.type(' /');
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await page.keyboard.press('Backspace');

  // The "Insert snippet" button: a search field, arrows and Enter, back in the message.
  await page.getByRole('button', { name: 'Insert snippet' }).press('Enter');
  const search = page.getByRole('combobox', { name: 'Search snippets' });
  await expect(search).toBeFocused();
  await page.keyboard.type('signature');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(message).toBeFocused();
  await expect(message).toHaveValue(/#launch #postwave — The Postwave team$/);
  await shot(page, 'compose-from-template');

  // "Remove signature" takes the inserted signature out.
  await page.getByRole('button', { name: 'Remove signature “Team signature”' }).press('Enter');
  await expect(message).not.toHaveValue(/\n\n— The Postwave team\n/);

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]+\?done=draft/);

  // Save as template from the post.
  await page.getByRole('button', { name: 'Save as template' }).press('Enter');
  await page.getByLabel('Template name').fill('From a draft');
  await page.getByRole('button', { name: 'Save template' }).press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Saved as template “From a draft”' }),
  ).toBeVisible();
  await expectAccessible(page, 'post-save-as-template', { testInfo: test.info(), soft: true });

  // Deleting the first template leaves the draft as it was.
  await page.goto('/templates');
  await expect(page.getByRole('heading', { name: 'From a draft' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete template Weekly update' }).press('Enter');
  await page.getByRole('button', { name: 'Delete template', exact: true }).press('Enter');
  await expect(page.getByRole('heading', { name: 'Weekly update' })).toHaveCount(0);
  // Its row is gone: the other template's Edit button has the focus.
  await expect(page.getByRole('button', { name: 'Edit template From a draft' })).toBeFocused();
  await page.goto('/posts?status=draft');
  await expect(page.getByText('This week at Postwave:').first()).toBeVisible();
});

test('the library page works at 390 px, in the dark colour scheme too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await signUp(page, 'Mary Jackson');
  await connectTelegram(page);
  await page.goto('/templates');
  await page.getByRole('region', { name: 'Snippets' }).getByLabel('Name').fill('Sign-off');
  await expect(page.getByRole('heading', { name: 'Templates & snippets', level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'library-page-phone', { testInfo: test.info(), soft: true });
});
