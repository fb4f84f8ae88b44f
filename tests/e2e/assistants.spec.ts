import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectAccessible } from './axe.ts';
import { connectTelegram, expect, signUp, test } from './fixtures.ts';

test('"Assistants must confirm": toggled by keyboard, an assistant’s post waits on its page for approval', async ({
  page,
  app,
  telegram,
  shot,
}) => {
  await signUp(page, 'Grace Hopper');
  await connectTelegram(page);

  await page.goto('/settings');
  const toggle = page.getByRole('checkbox', { name: 'Assistants must confirm' });
  await expect(toggle).not.toBeChecked();
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(
    page.getByRole('status').filter({ hasText: 'Assistants now need your approval.' }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Assistants must confirm' })).toBeChecked();
  await shot(page, 'settings-assistants');
  await expectAccessible(page, 'settings-assistants', { testInfo: test.info(), soft: true });

  // An assistant without elicitation (a plain SDK client with an API token) asks to publish now.
  const created = await page.request.post('/api/v1/tokens', {
    data: { name: 'Night-shift assistant' },
    headers: { origin: app.url },
  });
  expect(created.status()).toBe(201);
  const { token } = await created.json();
  const accounts = await (
    await page.request.get('/api/v1/accounts', { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const mcp = new Client({ name: 'e2e', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const sent = telegram.sent.length;
  const result = (await mcp.callTool({
    name: 'create_post',
    arguments: { message: 'Approved by a person', accountIds: [accounts.accounts[0].id], postingMode: 'now' },
  })) as unknown as { structuredContent: { outcome: string; approvalUrl: string } };
  await mcp.close();
  expect(result.structuredContent.outcome).toBe('approval_required');
  expect(telegram.sent.length).toBe(sent);

  // The post waits as `pending_approval` (reason "assistants"): the member who granted the
  // assistant approves it on its page (docs/workspaces.md#approvals).
  await page.goto(result.structuredContent.approvalUrl);
  const state = page.getByTestId('approval-state');
  await expect(state).toContainText('Night-shift assistant');
  await expect(state).toContainText('publish it now');
  await expect(page.getByTestId('post-history')).toContainText('submitted it for approval');
  await shot(page, 'post-approval');
  await expectAccessible(page, 'post-approval', { testInfo: test.info(), soft: true });
  await page.getByRole('button', { name: 'Approve this post' }).press('Enter');
  await expect(page.getByTestId('approval-state')).toHaveCount(0);
  // The section went with the refresh: the outcome is still announced, the page heading has the focus.
  await expect(page.getByTestId('approval-outcome')).toHaveText('Approved this post.');
  await expect(page.getByRole('heading', { name: 'Post', level: 1 })).toBeFocused();
  await expect(page.getByTestId('result')).toContainText('Posted');
  expect(telegram.sent.at(-1)?.text).toBe('Approved by a person');
});
