import { expectAccessible } from './axe.ts';
import { chat, connectTelegram, expect, selectChip, signUp, test } from './fixtures.ts';

/*
 * A team's approval, end to end (docs/workspaces.md#approvals, #review-links): the owner invites a
 * contributor; the contributor signs up from the invitation, confirms the address and accepts;
 * submits a post ("Submit for approval"), sees on its page only what a contributor may do (withdraw
 * it, submit it again); the owner creates a review link; a client with no
 * account approves it in a fresh browser context at phone width; the post is published once.
 */

/** The newest verification link the app logged (LOG_LEVEL=info, no SMTP). */
function lastVerifyLink(output: string): string {
  const links = output
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes('verifyLink'))
    .map((l) => (JSON.parse(l) as { verifyLink: string }).verifyLink);
  const link = links.at(-1);
  if (!link) throw new Error('no verification link logged');
  return link;
}

test('owner invites a contributor, the contributor submits, a client approves through a review link', async ({
  page,
  browser,
  app,
  telegram,
}) => {
  test.setTimeout(300_000);
  await signUp(page, 'Olivia Owner');
  await connectTelegram(page);
  const workspaces = await (await page.request.get('/api/v1/workspaces')).json();
  const workspaceId = workspaces.currentWorkspaceId as string;
  const email = `carlo${Date.now()}@example.test`;
  const invited = await page.request.post(`/api/v1/workspaces/${workspaceId}/invitations`, {
    data: { email, role: 'contributor' },
    headers: { origin: app.url },
  });
  expect(invited.status()).toBe(201);
  const inviteUrl = (await invited.json()).url as string;

  // The contributor: a fresh browser, sign-up from the invitation, the verification link, accept.
  const contributorContext = await browser.newContext();
  const contributor = await contributorContext.newPage();
  await contributor.goto(inviteUrl);
  await contributor.getByRole('link', { name: 'Create your account' }).click();
  await contributor.getByLabel('Name').fill('Carlo Contributor');
  await expect(contributor.getByLabel('Email')).toHaveValue(email);
  await contributor.getByLabel('Password').fill('correct horse battery');
  await contributor.getByRole('button', { name: 'Create account' }).click();
  await expect(contributor).toHaveURL(/\/invite\//);
  // No SMTP here: the page never says a link was sent; it says what whoever runs the server can do.
  await expect(contributor.getByTestId('mail-not-set-up')).toContainText('no SMTP server is set up');
  await expect(contributor.getByText(/link we sent/)).toHaveCount(0);
  await expect(contributor.getByRole('button', { name: 'Send a new link' })).toHaveCount(0);
  await expectAccessible(contributor, 'invite-unconfirmed-no-smtp', { testInfo: test.info(), soft: true });
  // The verification link brings the person back to the invitation.
  await contributor.goto(lastVerifyLink(app.output()));
  await contributor.getByRole('button', { name: 'Confirm my e-mail address' }).click();
  await contributor.getByRole('link', { name: 'Continue to the invitation' }).click();
  await expect(contributor).toHaveURL(/\/invite\//);
  await contributor.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(contributor).not.toHaveURL(/\/invite\//);

  const message = `Launch day ${Date.now()}`;
  await contributor.goto('/compose');
  await selectChip(contributor.locator('[data-testid^="chip-"]').first());
  await contributor.getByRole('textbox', { name: 'Message', exact: true }).fill(message);
  await expect(contributor.getByRole('button', { name: 'Publish now' })).toHaveCount(0);
  await contributor.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(contributor).toHaveURL(/\/posts\/[0-9a-f-]+/);
  await expect(contributor.locator('.page-head .badge')).toHaveText('Waiting for approval');
  const postUrl = contributor.url().split('?')[0]!;
  await expectAccessible(contributor, 'team-submitted', { testInfo: test.info(), soft: true });

  // The post page offers a contributor only what the server allows them (contract G): a pending
  // post goes out through a decision, and deleting is an editor's. Its account waits for approval.
  const noPublishing = async () => {
    for (const name of ['Publish now', 'Schedule', 'Reschedule', 'Delete post'])
      await expect(contributor.getByRole('button', { name, exact: true })).toHaveCount(0);
  };
  await noPublishing();
  await expect(contributor.getByRole('button', { name: 'Submit for approval' })).toHaveCount(0);
  await expect(contributor.getByTestId('result').locator('.badge')).toHaveText('Waiting for approval');
  // Withdrawn to a draft, then submitted again from the post page: each outcome says what happened.
  await contributor.getByRole('button', { name: 'Withdraw to drafts' }).click();
  await expect(contributor.getByRole('status').filter({ hasText: 'Withdrawn' })).toBeFocused();
  await expect(contributor.locator('.page-head .badge')).toHaveText('Draft');
  await expect(contributor.getByText('Published.')).toHaveCount(0);
  await noPublishing();
  await contributor.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(contributor.getByRole('status').filter({ hasText: 'Sent for approval' })).toBeFocused();
  await expect(contributor.locator('.page-head .badge')).toHaveText('Waiting for approval');
  await expect(contributor.getByText(/Publishing started/)).toHaveCount(0);
  await noPublishing();
  // Two more submissions for the owner to decide on the Approvals page, listed newest first:
  // “Teaser to send back”, “Teaser to approve”, then the first one.
  const { accounts } = await (await contributor.request.get('/api/v1/accounts')).json();
  for (const extra of ['Teaser to approve', 'Teaser to send back']) {
    const submitted = await contributor.request.post('/api/v1/posts', {
      headers: { origin: app.url },
      data: {
        message: extra,
        accountIds: [accounts[0].id],
        postingMode: 'schedule',
        scheduledAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
      },
    });
    expect(submitted.status()).toBe(202);
  }
  // Kept to submit one more at the end, whose requested time passes before the owner decides.
  const contributorState = await contributorContext.storageState();
  await contributorContext.close();

  // The owner sees them waiting.
  await page.goto('/approvals');
  const pending = page.getByTestId('pending-post');
  await expect(pending).toHaveCount(3);
  await expect(pending).toContainText(['Teaser to send back', 'Teaser to approve', message]);
  await expectAccessible(page, 'team-approvals', { testInfo: test.info(), soft: true });

  // By keyboard: Reject… gives the comment box the focus, Cancel gives it back.
  const reject = page.getByRole('button', { name: 'Reject “Teaser to send back”' });
  await reject.press('Enter');
  const comment = page.getByLabel('What should change? (sent to the author)');
  await expect(comment).toBeFocused();
  await page.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect(comment).toHaveCount(0);
  await expect(reject).toBeFocused();
  // Sent back: the outcome is announced from a region the refresh keeps, and the next post's
  // first action has the focus.
  await reject.press('Enter');
  await page.keyboard.type('Shorter, please.');
  await page.getByRole('button', { name: 'Send back to draft' }).press('Enter');
  const outcome = page.getByTestId('approval-outcome');
  await expect(outcome).toHaveText('Sent “Teaser to send back” back to the author.');
  await expect(pending).toHaveCount(2);
  const approveTeaser = page.getByRole('button', { name: 'Approve “Teaser to approve”' });
  await expect(approveTeaser).toBeFocused();
  await approveTeaser.press('Enter');
  await expect(outcome).toHaveText('Approved “Teaser to approve”.');
  await expect(pending).toHaveCount(1);
  await expect(page.getByRole('button', { name: `Approve “${message}”` })).toBeFocused();
  await page.goto(postUrl);
  await expect(page.getByTestId('approval-state')).toContainText('Carlo Contributor');
  await page.getByRole('button', { name: 'Create review link' }).click();
  const reviewUrl = await page.getByLabel('Review link (shown once)').inputValue();
  expect(reviewUrl).toMatch(/\/review\/pwr_/);
  await expectAccessible(page, 'team-post-review-link', { testInfo: test.info(), soft: true });
  // A second link, revoked by keyboard: each Revoke names its link, and the focus moves to the
  // other link's Revoke when the pressed one goes.
  await page.getByRole('button', { name: 'Create review link' }).click();
  const revokes = page
    .getByRole('list', { name: 'Review links' })
    .getByRole('button', { name: /^Revoke review link created / });
  await expect(revokes).toHaveCount(2);
  const [firstName, secondName] = await revokes.evaluateAll((buttons) => buttons.map((b) => b.textContent));
  expect(firstName).not.toBe(secondName);
  await revokes.first().press('Enter');
  await expect(revokes).toHaveCount(1);
  await expect(revokes.first()).toBeFocused();

  // The client: no account, a fresh browser context, a phone-sized window.
  const clientContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const client = await clientContext.newPage();
  await client.goto(reviewUrl);
  await expect(client.getByRole('heading', { name: 'Review a post', level: 1 })).toBeVisible();
  await expect(client.getByRole('article')).toContainText(message);
  await expectAccessible(client, 'team-review-page', { testInfo: test.info(), soft: true });
  const width = await client.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  // Empty name and comment: each error under its field, the first field focused.
  const clientName = client.getByLabel('Your name');
  const addComment = client.getByRole('button', { name: 'Add comment' });
  await addComment.press('Enter');
  await expect(clientName).toBeFocused();
  await expect(clientName).toHaveAttribute('aria-invalid', 'true');
  await expect(clientName).toHaveAccessibleDescription('Type your name.');
  await expect(client.getByLabel('Comment', { exact: true })).toHaveAccessibleDescription('Write a comment.');
  await clientName.fill('Clara Client');
  await client.getByLabel('Comment', { exact: true }).fill('Looks good.');
  await addComment.press('Enter');
  await expect(client.getByRole('status').filter({ hasText: 'Comment added.' })).toBeVisible();
  await expect(addComment).toBeFocused();
  await expect(clientName).not.toHaveAttribute('aria-invalid');
  await client.getByRole('button', { name: 'Approve' }).press('Enter');
  const approved = client.getByRole('status').filter({ hasText: 'Approved' });
  await expect(approved).toBeVisible();
  // The decision buttons are gone: the outcome has the focus, not <body>.
  await expect(approved).toBeFocused();
  await clientContext.close();

  await page.goto(postUrl);
  await expect(page.locator('.page-head .badge')).toHaveText('Posted');
  expect(telegram.sent.filter((m) => m.text === message && String(m.chatId) === String(chat.id)).length).toBe(
    1,
  );

  // A requested time that passed while the post waited: Approve opens a field for a new time
  // (the API answered 409 scheduled_time_passed, and the page had nothing to offer).
  const lateContext = await browser.newContext({ storageState: contributorState });
  const late = await lateContext.request.post('/api/v1/posts', {
    headers: { origin: app.url },
    data: {
      message: 'Teaser too late',
      accountIds: [accounts[0].id],
      postingMode: 'schedule',
      scheduledAt: new Date(Date.now() + 1500).toISOString(),
    },
  });
  expect(late.status()).toBe(202);
  await lateContext.close();
  await page.waitForTimeout(1600);
  await page.goto('/approvals');
  await expect(pending).toHaveCount(1);
  await page.getByRole('button', { name: 'Approve “Teaser too late”' }).press('Enter');
  const newTime = page.getByLabel(/^New time/);
  await expect(newTime).toBeFocused();
  await expect(newTime).toHaveAccessibleDescription(/The requested time has passed/);
  await expectAccessible(page, 'team-approval-new-time', { testInfo: test.info(), soft: true });
  await page.getByRole('button', { name: 'Approve for this time' }).press('Enter');
  await expect(outcome).toHaveText('Approved “Teaser too late”.');
  await expect(pending).toHaveCount(0);
});
