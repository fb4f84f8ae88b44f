import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { type MailCapture, startMailCapture } from '../helpers/mail-capture.ts';

const tokens = {
  revoked: '555555:HealthRevokedBotTokenHealthRevoked',
  flaky: '666666:HealthFlakyBotTokenHealthFlakyBotTo',
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

for (const backend of backends()) {
  describe(`account health through the API, MCP and pages (${backend})`, () => {
    const bots: Record<string, { username: string }> = {
      [tokens.revoked]: { username: 'revoked_bot' },
      [tokens.flaky]: { username: 'flaky_bot' },
    };
    let telegram: FakeTelegram;
    let mail: MailCapture;
    let app: RunningApp;

    before(async () => {
      telegram = await startFakeTelegram({
        bots,
        chats: {
          '@news': { id: -1001, title: 'News', username: 'news' },
          '@updates': { id: -1002, title: 'Updates', username: 'updates' },
        },
      });
      mail = await startMailCapture();
      app = await startApp(backend, {
        TELEGRAM_API_URL: telegram.url,
        SMTP_URL: mail.url,
        // Every account is due again a second after its last check.
        ACCOUNT_HEALTH_INTERVAL_MS: '1000',
      });
    });
    after(async () => {
      await app?.stop();
      await telegram?.close();
      await mail?.close();
    });

    test('a platform that starts refusing the credentials: needs_reconnect everywhere, one e-mail', async () => {
      const { api, session, user } = await userWithToken(app.url, 'health');
      const connected = await api.json('/api/v1/accounts', {
        json: { platform: 'telegram', platformAccountId: '@news', credentials: { botToken: tokens.revoked } },
      });
      assert.equal(connected.status, 201);
      assert.equal(connected.body.health, 'ok');
      assert.equal(connected.body.healthHint, undefined, 'nothing to do while it works');
      assert.equal(typeof connected.body.healthCheckedAt, 'string');
      const id = connected.body.id as string;
      const scheduled = await api.json('/api/v1/posts', {
        json: {
          message: 'Going out next week',
          accountIds: [id],
          postingMode: 'schedule',
          scheduledAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        },
      });
      assert.equal(scheduled.status, 201);
      // Checked again by the periodic check while the bot still works.
      const first = connected.body.healthCheckedAt as string;
      await until('a second check', async () => {
        const { body } = await api.json(`/api/v1/accounts/${id}`);
        return body.healthCheckedAt !== first ? body : undefined;
      });
      const reconnectMail = () => mail.to(user.email, 'Reconnect your Telegram account');
      assert.equal(reconnectMail().length, 0, 'no health mail while the account works');

      delete bots[tokens.revoked]; // the bot was deleted: Telegram answers 401
      const account = await until('needs_reconnect', async () => {
        const { body } = await api.json(`/api/v1/accounts/${id}`);
        return body.health === 'needs_reconnect' ? body : undefined;
      });
      assert.equal(account.status, 'needs_reconnect');
      assert.match(account.healthReason, /Telegram refused the stored credentials/);
      // Contract F: what the person can do, beside why.
      assert.match(account.healthHint, /reconnect the account/);
      assert.equal(JSON.stringify(account).includes(tokens.revoked), false);

      await until('the e-mail', async () => (reconnectMail().length > 0 ? true : undefined));
      await new Promise((r) => setTimeout(r, 3000)); // three more check intervals
      assert.equal(reconnectMail().length, 1, 'one e-mail per change, not per check');
      assert.match(reconnectMail()[0]!.raw, /\/accounts/);

      // The post list and the post page flag the scheduled post before its time.
      const list = await session.fetch('/posts');
      assert.match(await list.text(), /data-testid="post-at-risk"/);
      const page = await session.fetch(`/posts/${scheduled.body.id}`);
      assert.match(await page.text(), /data-testid="accounts-at-risk"/);
      const accountsPage = await (await session.fetch('/accounts')).text();
      assert.match(accountsPage, /data-health="needs_reconnect"/);

      // MCP: the list_accounts tool and the postwave://accounts resource carry it too.
      const { body: token } = await session.json('/api/v1/tokens', { json: { name: 'mcp' } });
      const mcp = new McpClient({ name: 'health-test', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token.token}` } },
        }),
      );
      try {
        const tool = (await mcp.callTool({ name: 'list_accounts', arguments: {} })) as unknown as {
          structuredContent: {
            accounts: { id: string; health: string; healthReason?: string; healthHint?: string }[];
          };
        };
        const listed = tool.structuredContent.accounts.find((a) => a.id === id)!;
        assert.equal(listed.health, 'needs_reconnect');
        assert.match(listed.healthReason ?? '', /refused/);
        assert.equal(listed.healthHint, account.healthHint);
        const resource = await mcp.readResource({ uri: 'postwave://accounts' });
        const text = (resource.contents[0] as { text: string }).text;
        assert.equal(JSON.parse(text).accounts[0].health, 'needs_reconnect');
      } finally {
        await mcp.close();
      }

      // The OpenAPI document names the states.
      const openapi = await api.json('/openapi.json');
      assert.deepEqual(openapi.body.components.schemas.AccountHealth.enum, [
        'ok',
        'expiring',
        'needs_reconnect',
        'unreachable',
      ]);
    });

    test('a platform that cannot be reached is unreachable, and ok again once it answers', async () => {
      const { api, session } = await userWithToken(app.url, 'flaky');
      const connected = await api.json('/api/v1/accounts', {
        json: {
          platform: 'telegram',
          platformAccountId: '@updates',
          credentials: { botToken: tokens.flaky },
        },
      });
      assert.equal(connected.status, 201);
      telegram.injectServerError(502, { times: 10_000 });
      try {
        const account = await until('unreachable', async () => {
          const { body } = await api.json(`/api/v1/accounts/${connected.body.id}`);
          return body.health === 'unreachable' ? body : undefined;
        });
        assert.equal(account.status, 'active');
        assert.match(account.healthReason, /could not be reached/);
        assert.match(account.healthHint, /checked again by itself/);
        const page = await (await session.fetch('/accounts')).text();
        assert.match(page, /checked again by itself/, 'the accounts page says what to do, too');
      } finally {
        telegram.clearInjected();
      }
      await until('ok again', async () => {
        const { body } = await api.json(`/api/v1/accounts/${connected.body.id}`);
        return body.health === 'ok' ? body : undefined;
      });
    });
  });
}
