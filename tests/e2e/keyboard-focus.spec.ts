import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

/*
 * Keyboard and screen reader checks of the forms outside the composer (docs/web-ui.md,
 * Accessibility): a button that cannot act yet stays in the tab order with `aria-disabled` and the
 * reason as its description (the composer's ActionButton), a pending submit keeps the focus on its
 * button, each field error is tied to its field and announced, and an action that removes the
 * focused control hands the focus on instead of dropping it to <body>.
 */

/** Holds the page's server-action POSTs to `path` until `release()`, to see the pending state. */
async function holdPosts(page: Page, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await released;
      await route.fallback();
    },
  );
  return release;
}

test('sign-in and sign-up: the pending button keeps the focus, each error is on its field and announced', async ({
  page,
}) => {
  await page.goto('/signin');
  // Sent empty: each empty field says so, is marked and described, and the first takes the focus.
  await page.getByRole('button', { name: 'Sign in', exact: true }).press('Enter');
  const email = page.getByLabel('Email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription('Enter your email.');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
    'Enter your password.',
  );
  await expect(email).toBeFocused();
  await page.getByLabel('Email').fill('nobody@example.test');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  const release = await holdPosts(page, '/signin');
  const signIn = page.getByRole('button', { name: /Sign(ing)? in/ });
  await signIn.press('Enter');
  await expect(email).not.toHaveAttribute('aria-invalid');
  // Pending: it says so and ignores presses, but it is not `disabled`, which dropped the focus.
  await expect(signIn).toHaveText('Signing in…');
  await expect(signIn).toHaveAttribute('aria-disabled', 'true');
  await expect(signIn).toBeFocused();
  release();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('do not match');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeFocused();

  await page.goto('/signup');
  await page.getByLabel('Email').fill(`short${Date.now()}@example.test`);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).press('Enter');
  // The refusal lands on the password field, which takes the focus; its message is an alert.
  const password = page.getByLabel('Password');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/at least 10 characters/i);
  await expect(page.getByRole('main').getByRole('alert')).toContainText(/at least 10 characters/i);
  await expect(password).toBeFocused();
  await expectAccessible(page, 'signup-refused', { testInfo: test.info(), soft: true });
});

test('a blocked comment or template button stays in the tab order and says why', async ({ page, app }) => {
  await signUp(page, 'Blocked Buttons');
  await connectTelegram(page);
  const { accounts } = await (await page.request.get('/api/v1/accounts')).json();
  const created = await page.request.post('/api/v1/posts', {
    headers: { origin: app.url },
    data: { message: 'A draft to comment on', accountIds: [accounts[0].id], postingMode: 'draft' },
  });
  const post = await created.json();
  await page.goto(`/posts/${post.id}`);

  // Comments: an empty box leaves "Post comment" focusable, aria-disabled, described by the reason.
  const comments = page.getByRole('region', { name: 'Comments' });
  await comments.getByLabel('Add a comment').focus();
  await page.keyboard.press('Tab');
  const postComment = comments.getByRole('button', { name: 'Post comment' });
  await expect(postComment).toBeFocused();
  await expect(postComment).toHaveAttribute('aria-disabled', 'true');
  await expect(postComment).toHaveAccessibleDescription('Write a comment first.');
  await page.keyboard.press('Enter');
  await expect(comments.getByText('No comments yet.')).toBeVisible();
  await comments.getByLabel('Add a comment').fill('Ready now');
  await expect(postComment).not.toHaveAttribute('aria-disabled');
  await expect(postComment).not.toHaveAccessibleDescription('Write a comment first.');

  // Save as template: without a name, Save template says it needs one and stays reachable.
  await page.getByRole('button', { name: 'Save as template' }).press('Enter');
  const name = page.getByLabel('Template name');
  await expect(name).toBeFocused();
  await name.fill('');
  await page.keyboard.press('Tab');
  const save = page.getByRole('button', { name: 'Save template' });
  await expect(save).toBeFocused();
  await expect(save).toHaveAttribute('aria-disabled', 'true');
  await expect(save).toHaveAccessibleDescription('Give the template a name.');
  await page.keyboard.press('Enter');
  await name.focus();
  await page.keyboard.press('Enter');
  expect((await (await page.request.get('/api/v1/templates')).json()).templates).toHaveLength(0);
  await expectAccessible(page, 'post-blocked-buttons', { testInfo: test.info(), soft: true });
});

test('settings: the assistants toggle keeps the focus; revoking an assistant hands it on', async ({
  page,
  app,
}) => {
  await signUp(page, 'Focus Keeper');
  // An MCP client the person approves on the consent page; the code goes to a loopback callback.
  const redirectUri = 'http://127.0.0.1:8765/callback';
  const registration = await (
    await page.request.post('/api/oauth/register', {
      data: { client_name: 'Focus Assistant', redirect_uris: [redirectUri] },
    })
  ).json();
  const verifier = randomBytes(32).toString('base64url');
  let code: string | null = null;
  await page.route(`${redirectUri}**`, async (route) => {
    code = new URL(route.request().url()).searchParams.get('code');
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'ok' });
  });
  await page.goto(
    `/oauth/consent?${new URLSearchParams({
      response_type: 'code',
      client_id: registration.client_id,
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'focus',
      resource: `${app.url}/mcp`,
      scope: 'mcp',
    })}`,
  );
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => code).not.toBeNull();
  const token = await page.request.post('/api/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      client_id: registration.client_id,
      code: code!,
      code_verifier: verifier,
      redirect_uri: redirectUri,
    },
  });
  expect(token.status()).toBe(200);

  await page.goto('/settings');
  const toggle = page.getByRole('checkbox', { name: 'Assistants must confirm' });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(
    page.getByRole('status').filter({ hasText: 'Assistants now need your approval.' }),
  ).toBeVisible();
  await expect(toggle).toBeChecked();
  await expect(toggle).toBeFocused();

  // Revoke: the row and its button go; the outcome is announced and takes the focus.
  const revoke = page.getByRole('button', { name: 'Revoke', exact: true });
  await revoke.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Disconnect “Focus Assistant”?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // The dialog is named by its question and described by what follows from it (read on opening).
  await expect(dialog).toHaveAccessibleDescription(/It can no longer read or post as you/);
  // Escape closes the dialog and gives the focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  await revoke.press('Enter');
  // While the revoke runs (held back here), Escape and Cancel leave the dialog open: closing it
  // would hide the outcome of an action that still happens.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/v1/mcp-clients?*', async (route) => {
    if (route.request().method() === 'DELETE') await held;
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Revoke access' }).press('Enter');
  await expect(dialog.getByRole('button', { name: 'Working…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  // aria-disabled, so Playwright would wait for it to be enabled: a user can still press it.
  await dialog.getByRole('button', { name: 'Cancel' }).click({ force: true });
  await expect(dialog).toBeVisible();
  release();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No assistants connected')).toBeVisible();
  const outcome = page.getByRole('status').filter({ hasText: 'Revoked the access of Focus Assistant.' });
  await expect(outcome).toBeFocused();
  await expectAccessible(page, 'settings-assistant-revoked', { testInfo: test.info(), soft: true });
});

test('invitation: a refused accept keeps the focus; a removed member hands it to the outcome', async ({
  page,
  browser,
  app,
}) => {
  await signUp(page, 'Inviting Owner');
  const { currentWorkspaceId } = await (await page.request.get('/api/v1/workspaces')).json();
  const email = `invited${Date.now()}@example.test`;
  const invited = await page.request.post(`/api/v1/workspaces/${currentWorkspaceId}/invitations`, {
    data: { email, role: 'editor' },
    headers: { origin: app.url },
  });
  const invitation = await invited.json();

  // The invited person: an account with that address, confirmed through the logged link (no SMTP).
  const context = await browser.newContext();
  const guest = await context.newPage();
  await guest.goto(`/signup?${new URLSearchParams({ email, next: new URL(invitation.url).pathname })}`);
  await guest.getByLabel('Password').fill('correct horse battery');
  await guest.getByRole('button', { name: 'Create account' }).click();
  await expect(guest).toHaveURL(/\/invite\//);
  // The newest link logged: the guest's, just signed up.
  const verify = app
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes('verifyLink'))
    .map((l) => (JSON.parse(l) as { verifyLink: string }).verifyLink)
    .at(-1);
  await guest.goto(verify!);
  await guest.getByRole('button', { name: 'Confirm my e-mail address' }).click();
  await guest.getByRole('link', { name: 'Continue to the invitation' }).click();
  const accept = guest.getByRole('button', { name: 'Accept the invitation' });
  await expect(accept).toBeVisible();
  await expectAccessible(guest, 'invite-accept', { testInfo: test.info(), soft: true });

  // The owner revokes it meanwhile: Accept is refused, said in an alert; the focus stays on the button.
  const revoked = await page.request.delete(
    `/api/v1/workspaces/${currentWorkspaceId}/invitations/${invitation.id}`,
    { headers: { origin: app.url } },
  );
  expect(revoked.status()).toBe(204);
  await accept.press('Enter');
  await expect(guest.getByRole('main').getByRole('alert')).toBeVisible();
  await expect(accept).toBeFocused();

  // A new invitation, accepted; then the owner removes the member by keyboard: the row and its
  // Remove button go, a status says who was removed and takes the focus.
  const again = await page.request.post(`/api/v1/workspaces/${currentWorkspaceId}/invitations`, {
    data: { email, role: 'editor' },
    headers: { origin: app.url },
  });
  await guest.goto((await again.json()).url);
  await guest.getByRole('button', { name: 'Accept the invitation' }).press('Enter');
  await expect(guest).not.toHaveURL(/\/invite\//);
  await context.close();
  await page.goto('/settings#workspace');
  await page
    .getByRole('row', { name: new RegExp(email) })
    .getByRole('button', { name: 'Remove' })
    .press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: `Removed ${email} from the workspace.` }),
  ).toBeFocused();
});

/** WCAG relative luminance of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the keyboard focus is visible: a solid outline at 3:1, kept in forced colours (${scheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/signin');
    const ring = async () => {
      await page.getByLabel('Password', { exact: true }).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      const button = page.getByRole('button', { name: 'Sign in', exact: true });
      await expect(button).toBeFocused();
      return button.evaluate((el) => {
        const style = getComputedStyle(el);
        const card = getComputedStyle(el.closest('.auth-card')!).backgroundColor;
        return {
          style: style.outlineStyle,
          width: Number.parseFloat(style.outlineWidth),
          color: style.outlineColor,
          card,
        };
      });
    };
    // A 35 % tint as a box-shadow was about 1.8:1 against the card (SC 1.4.11 asks 3:1), and
    // forced colours (Windows high contrast) drop box-shadows: no indicator at all.
    const normal = await ring();
    expect(normal.style).toBe('solid');
    expect(normal.width).toBeGreaterThanOrEqual(2);
    expect(normal.color).not.toMatch(/rgba\(.*,\s*0?\.\d+\)$/);
    const [hi, lo] = [luminance(normal.color), luminance(normal.card)].sort((a, b) => b - a);
    expect((hi! + 0.05) / (lo! + 0.05)).toBeGreaterThanOrEqual(3);
    await page.emulateMedia({ colorScheme: scheme, forcedColors: 'active' });
    const forced = await ring();
    expect(forced.style).not.toBe('none');
    expect(forced.width).toBeGreaterThanOrEqual(2);
  });
}
