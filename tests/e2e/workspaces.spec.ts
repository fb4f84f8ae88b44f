import { expectAccessible } from './axe.ts';
import { expect, signUp, test } from './fixtures.ts';

/*
 * Settings → Workspace (contract G, docs/workspaces.md): create a second workspace, switch to it,
 * rename it, set its approvals, invite someone (no SMTP here: the link is to be copied), delete it.
 * Keyboard first; each outcome is a status that holds the focus.
 */
test('workspace settings: create, switch, rename, approvals, invite, delete', async ({ page, shot }) => {
  const owner = await signUp(page, 'Wanda Workspaces');
  await page.goto('/settings#workspace');

  // Create: an empty name is refused at the field; then a name creates it.
  const create = page.getByRole('form', { name: 'New workspace' });
  await create.getByRole('button', { name: 'Create workspace' }).press('Enter');
  const newName = create.getByLabel('Name of the new workspace');
  await expect(newName).toHaveAttribute('aria-invalid', 'true');
  await expect(newName).toHaveAccessibleDescription(/Give the new workspace a name/);
  await expect(newName).toBeFocused();
  await newName.fill('Side Project');
  await newName.press('Enter');
  const created = create.getByRole('status');
  await expect(created).toContainText('Created the workspace Side Project.');
  await expect(created).toBeFocused();
  await expectAccessible(page, 'workspace-created', { testInfo: test.info(), soft: true });

  // The navigation's switcher lists it; the status offers to switch to it.
  await expect(page.locator('#workspace-switcher option', { hasText: 'Side Project' })).toHaveCount(1);
  await created.getByRole('button', { name: 'Switch to Side Project' }).press('Enter');
  await expect(page.getByRole('heading', { name: 'Workspace: Side Project' })).toBeVisible();

  // Rename it and set approvals, by keyboard.
  const settings = page.getByRole('form', { name: 'Workspace settings' });
  await settings.getByLabel('Name', { exact: true }).fill('Side Project Ltd');
  await settings.getByLabel('Approvals').selectOption('everyone');
  await settings.getByLabel('Time zone').selectOption('Europe/Berlin');
  await settings.getByRole('button', { name: 'Save workspace' }).press('Enter');
  const saved = settings.getByRole('status');
  await expect(saved).toHaveText('Saved the workspace settings of Side Project Ltd.');
  await expect(saved).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Workspace: Side Project Ltd' })).toBeVisible();
  const { workspaces, currentWorkspaceId } = await (await page.request.get('/api/v1/workspaces')).json();
  const current = await (await page.request.get(`/api/v1/workspaces/${currentWorkspaceId}`)).json();
  expect(current).toMatchObject({
    name: 'Side Project Ltd',
    role: 'owner',
    settings: { approvals: 'everyone', timezone: 'Europe/Berlin' },
  });
  expect(workspaces).toHaveLength(2);
  await shot(page, 'workspace-settings');
  await expectAccessible(page, 'workspace-settings', { testInfo: test.info(), soft: true });

  // An invitation without an e-mail server: the link is to be copied, never "sent"; it fits a phone.
  // Not an address, then a member's own: each refusal under the field, which takes the focus.
  const inviteEmail = page.getByLabel('Invite by e-mail');
  const inviteButton = page.getByRole('button', { name: 'Invite', exact: true });
  await inviteEmail.fill('not-an-email');
  await inviteButton.press('Enter');
  await expect(inviteEmail).toBeFocused();
  await expect(inviteEmail).toHaveAttribute('aria-invalid', 'true');
  await expect(inviteEmail).toHaveAccessibleDescription(/Enter an e-mail address/);
  await inviteEmail.fill(owner.email);
  await inviteButton.press('Enter');
  await expect(inviteEmail).toHaveAccessibleDescription(
    `${owner.email} is already a member: change their role above instead.`,
  );
  await expect(inviteEmail).toBeFocused();
  await inviteEmail.fill(`someone${Date.now()}@example.test`);
  await inviteButton.press('Enter');
  const invited = page.locator('.invite-link');
  await expect(invited).toContainText('Copy this link and send it to them: no e-mail server is configured');
  await expect(invited).not.toContainText('sent by e-mail');
  await expect(invited.getByRole('button', { name: 'Copy invitation link' })).toBeVisible();
  await expect(inviteButton).toBeFocused();
  await expect(inviteEmail).not.toHaveAttribute('aria-invalid');
  await page.setViewportSize({ width: 375, height: 800 });
  const { width, wide } = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    // What sticks out, to name it when this fails.
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > 376)
      .slice(-5)
      .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
  }));
  expect(width, wide.join('; ')).toBeLessThanOrEqual(375);
  await shot(page, 'workspace-invite-375');
  await page.setViewportSize({ width: 1280, height: 860 });

  // Revoked by keyboard: the invitation and its button go; a status says so and takes the focus.
  const invitedEmail = (await page.getByRole('list', { name: 'Open invitations' }).textContent())!.split(
    ' ',
  )[0]!;
  await page.getByRole('button', { name: `Revoke the invitation for ${invitedEmail}` }).press('Enter');
  const revokedInvitation = page
    .getByRole('status')
    .filter({ hasText: `Revoked the invitation for ${invitedEmail}.` });
  await expect(revokedInvitation).toBeFocused();
  await expect(page.getByRole('list', { name: 'Open invitations' })).toHaveCount(0);

  // Delete it: the confirmation dialog, then the person is back in their first workspace.
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete workspace' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The workspace was deleted.' })).toBeVisible();
  const after = await (await page.request.get('/api/v1/workspaces')).json();
  expect(after.workspaces).toHaveLength(1);
  expect(after.workspaces[0].name).not.toBe('Side Project Ltd');
  await expectAccessible(page, 'workspace-deleted', { testInfo: test.info(), soft: true });
});

test('an unknown page is in the app’s style with a way back, and the icon is served', async ({ page }) => {
  await signUp(page, 'Lost Person');
  await page.goto('/posts/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Nothing here', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to your posts' })).toBeVisible();
  await expectAccessible(page, 'not-found-post', { testInfo: test.info() });
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Nothing here', level: 1 })).toBeVisible();
  await expectAccessible(page, 'not-found-page', { testInfo: test.info() });
  expect((await page.request.get('/favicon.ico')).status()).toBe(200);
});
