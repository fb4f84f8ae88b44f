/**
 * Regenerates the screenshots in docs/mcp.md from the running app (production build required:
 * `node web/scripts/build.ts`): the consent page, the "Assistants must confirm" setting and the
 * approval page an assistant links to. Usage: `node web/scripts/mcp-screenshots.ts`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright';
import { signUp } from '../test/helpers/client.ts';
import { connectTelegram, startTelegramApp } from '../test/helpers/fixtures.ts';
import { authorize, exchange, loopbackRedirect, type Tokens } from '../test/helpers/oauth.ts';

const out = join(import.meta.dirname, '..', '..', 'docs', 'images');
const env = await startTelegramApp('pglite');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const { client: session } = await signUp(env.app.url, 'Ada');
  const accountId = await connectTelegram(session, '@news');
  await session.json(`/api/v1/accounts/${accountId}`, { method: 'PATCH', json: { label: 'Company news' } });

  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
  await context.addCookies([...session.cookies].map(([name, value]) => ({ name, value, url: env.app.url })));
  const page = await context.newPage();

  // 1. Consent: what an assistant's OAuth flow opens.
  const registered = await (
    await fetch(`${env.app.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Claude', redirect_uris: [loopbackRedirect] }),
    })
  ).json();
  const verifier = randomBytes(32).toString('base64url');
  const authorizeUrl = `${env.app.url}/api/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: loopbackRedirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    scope: 'mcp',
    resource: `${env.app.url}/mcp`,
    state: 'docs',
  })}`;
  await page.goto(authorizeUrl);
  await page.screenshot({ path: join(out, 'mcp-consent.png') });

  // 2. The setting, turned on.
  await page.goto(`${env.app.url}/settings#assistants`);
  const toggle = page.getByLabel('Assistants must confirm');
  await toggle.check();
  await page.getByText('Assistants now need your approval.').waitFor();
  await page.locator('#assistants').screenshot({ path: join(out, 'mcp-settings-confirm.png') });

  // 3. An assistant without elicitation asks to publish: the approval page it links to.
  const tokens = (await (
    await exchange(
      env.app.url,
      registered.client_id,
      await authorize(env.app.url, session, registered.client_id),
    )
  ).json()) as Tokens;
  const mcp = new McpClient({ name: 'docs', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${env.app.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  const result = (await mcp.callTool({
    name: 'create_post',
    arguments: {
      message: 'Postwave 2 is out: schedule to 20 platforms, with your assistant keeping you in the loop.',
      accountIds: [accountId],
      postingMode: 'schedule',
      scheduledAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    },
  })) as unknown as { structuredContent: { approvalUrl: string } };
  await mcp.close();
  await page.goto(result.structuredContent.approvalUrl);
  await page.screenshot({ path: join(out, 'mcp-approval.png'), fullPage: true });
  console.log('screenshots written to', out);
} finally {
  await browser.close();
  await env.stop();
}
