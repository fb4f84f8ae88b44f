import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Client as McpClient, Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { dispatchSecret, type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, signUp, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect, rawMcp } from '../helpers/oauth.ts';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

/** An MCP client (the SDK's) that declares elicitation and answers with whatever the test queues. */
async function confirmingClient(app: string, browser: Client) {
  const asked: ElicitRequest['params'][] = [];
  const answers: ElicitResult[] = [];
  const connected = await connect(app, browser, undefined, { capabilities: { elicitation: { form: {} } } });
  connected.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    const answer = answers.shift();
    if (!answer) throw new Error('the test did not expect a confirmation');
    return answer;
  });
  return { ...connected, asked, answers };
}

function text(result: Json): string {
  return result.content.map((c: { text?: string }) => c.text ?? '').join('\n');
}

async function history(browser: Client, postId: string): Promise<string> {
  const page = await browser.fetch(`/posts/${postId}`);
  assert.equal(page.status, 200);
  return page.text();
}

function dispatch(app: RunningApp) {
  return fetch(`${app.url}/api/internal/scheduled-posts/dispatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dispatchSecret}` },
  });
}

/** Resolves with the URIs of `notifications/resources/updated` as they arrive. */
function updates(client: McpClient) {
  const seen: string[] = [];
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    seen.push(n.params.uri);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    seen,
    async waitFor(uri: string, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!seen.includes(uri)) {
        if (Date.now() > deadline) throw new Error(`no resources/updated for ${uri}; saw ${seen.join(', ')}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 250);
        });
      }
    },
  };
}

for (const backend of backends()) {
  describe(`MCP assistants: confirmation, resources, prompts (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('elicitation: accept publishes after a summary; decline and cancel publish nothing; history names the client', async () => {
      const { client: browser } = await signUp(env.app.url, 'elicit');
      const accountId = await connectTelegram(browser, '@news');
      const mcp = await confirmingClient(env.app.url, browser);

      // Accept.
      mcp.answers.push({ action: 'accept', content: { confirm: true } });
      const sent = env.telegram.sent.length;
      const accepted = (await mcp.client.callTool({
        name: 'create_post',
        arguments: { message: 'Launch day: Postwave 2 is out', accountIds: [accountId], postingMode: 'now' },
      })) as Json;
      assert.equal(accepted.isError, undefined, text(accepted));
      assert.equal(accepted.structuredContent.status, 'posted');
      assert.equal(env.telegram.sent.length, sent + 1);
      assert.equal(mcp.asked.length, 1);
      const question = mcp.asked[0]! as Json;
      assert.match(question.message, /publish this post now/i);
      assert.match(question.message, /@news/, 'accounts by label and handle');
      assert.match(question.message, /Launch day: Postwave 2 is out/);
      assert.match(question.message, /When: now/);
      assert.match(question.message, /@news \(@news, Telegram\)/);
      assert.deepEqual(Object.keys(question.requestedSchema.properties), ['confirm']);
      assert.equal(question.requestedSchema.properties.confirm.type, 'boolean');
      const page = await history(browser, accepted.structuredContent.id);
      assert.match(page, /Test MCP client/);
      assert.match(page, /published it/);

      // Decline: nothing is published, no post is created, the result says so.
      const before = ((await mcp.client.callTool({ name: 'list_posts', arguments: {} })) as Json)
        .structuredContent.posts.length;
      mcp.answers.push({ action: 'decline' });
      const declined = (await mcp.client.callTool({
        name: 'create_post',
        arguments: { message: 'Not this one', accountIds: [accountId], postingMode: 'now' },
      })) as Json;
      assert.match(text(declined), /declined/);
      assert.match(text(declined), /Nothing was published/);
      assert.equal(declined.structuredContent.published, false);
      assert.equal(env.telegram.sent.length, sent + 1);
      const afterDecline = ((await mcp.client.callTool({ name: 'list_posts', arguments: {} })) as Json)
        .structuredContent.posts.length;
      assert.equal(afterDecline, before);

      // "Accept" with the box left unticked is a no.
      mcp.answers.push({ action: 'accept', content: { confirm: false } });
      const unticked = (await mcp.client.callTool({
        name: 'create_post',
        arguments: { message: 'Unticked', accountIds: [accountId], postingMode: 'now' },
      })) as Json;
      assert.equal(unticked.structuredContent.outcome, 'declined');
      assert.equal(env.telegram.sent.length, sent + 1);

      // Cancel while scheduling an existing draft: it stays a draft; the history says so.
      const draft = (
        (await mcp.client.callTool({
          name: 'create_post',
          arguments: { message: 'Maybe later', accountIds: [accountId], postingMode: 'draft' },
        })) as Json
      ).structuredContent;
      assert.equal(mcp.asked.length, 3, 'drafts need no confirmation');
      mcp.answers.push({ action: 'cancel' });
      const when = new Date(Date.now() + 86_400_000).toISOString();
      const cancelled = (await mcp.client.callTool({
        name: 'schedule_post',
        arguments: { id: draft.id, scheduledAt: when },
      })) as Json;
      assert.match(text(cancelled), /cancelled/);
      assert.match(text(cancelled), /Nothing was scheduled/);
      assert.match((mcp.asked.at(-1) as Json).message, /schedule this post/i);
      assert.match((mcp.asked.at(-1) as Json).message, /Maybe later/);
      const still = (await mcp.client.callTool({ name: 'get_post', arguments: { id: draft.id } })) as Json;
      assert.equal(still.structuredContent.status, 'draft');
      assert.match(await history(browser, draft.id), /you dismissed the request/);

      // Decline publishing the draft.
      mcp.answers.push({ action: 'decline' });
      const kept = (await mcp.client.callTool({ name: 'publish_post', arguments: { id: draft.id } })) as Json;
      assert.equal(kept.structuredContent.outcome, 'declined');
      assert.equal(kept.structuredContent.post.status, 'draft');
      assert.equal(env.telegram.sent.length, sent + 1);

      // An invalid post is refused before anyone is asked.
      const asked = mcp.asked.length;
      const invalid = (await mcp.client.callTool({
        name: 'create_post',
        arguments: { message: 'x'.repeat(5000), accountIds: [accountId], postingMode: 'now' },
      })) as Json;
      assert.equal(invalid.isError, true);
      assert.equal(invalid.structuredContent.error.code, 'validation_failed');
      const noTime = (await mcp.client.callTool({
        name: 'create_post',
        arguments: { message: 'When?', accountIds: [accountId], postingMode: 'schedule' },
      })) as Json;
      assert.equal(noTime.structuredContent.error.code, 'validation_failed');
      assert.match(text(noTime), /scheduledAt is required/);
      assert.equal(mcp.asked.length, asked);
    });

    test('"assistants must confirm": a client without elicitation submits for approval (pending_approval) with a link', async () => {
      const { client: browser } = await signUp(env.app.url, 'approve');
      const accountId = await connectTelegram(browser, '@updates');
      const { client } = await connect(env.app.url, browser);

      const settings = await browser.json('/api/v1/mcp-clients/settings');
      assert.deepEqual(settings.body, { assistantsMustConfirm: false });
      // Off: the tool acts as asked.
      const direct = (await client.callTool({
        name: 'create_post',
        arguments: { message: 'Straight out', accountIds: [accountId], postingMode: 'now' },
      })) as Json;
      assert.equal(direct.structuredContent.status, 'posted');

      const put = await browser.json('/api/v1/mcp-clients/settings', {
        method: 'PUT',
        json: { assistantsMustConfirm: true },
      });
      assert.equal(put.status, 200);
      assert.equal(
        (await browser.json('/api/v1/mcp-clients/settings', { method: 'PUT', json: {} })).status,
        400,
      );
      const settingsPage = await (await browser.fetch('/settings')).text();
      assert.match(settingsPage, /Assistants must confirm/);
      assert.match(settingsPage, /checked=""/);

      const sent = env.telegram.sent.length;
      const when = new Date(Date.now() + 2 * 86_400_000).toISOString();
      const held = (await client.callTool({
        name: 'create_post',
        arguments: {
          message: 'Needs a yes',
          accountIds: [accountId],
          postingMode: 'schedule',
          scheduledAt: when,
        },
      })) as Json;
      assert.equal(held.isError, undefined, text(held));
      assert.equal(held.structuredContent.outcome, 'approval_required');
      assert.equal(held.structuredContent.post.status, 'pending_approval');
      assert.equal(held.structuredContent.post.approval.reason, 'assistants');
      assert.equal(held.structuredContent.post.approval.requestedBy.type, 'assistant');
      assert.equal(held.structuredContent.post.scheduledAt, when);
      const link = held.structuredContent.approvalUrl as string;
      assert.ok(link.startsWith(`${env.app.url}/posts/${held.structuredContent.post.id}`), link);
      assert.match(text(held), new RegExp(link.replace(/[?.]/g, '\\$&')));
      assert.equal(env.telegram.sent.length, sent);

      const page = await (await browser.fetch(link.slice(env.app.url.length))).text();
      assert.match(page, /asks you to approve this post/);
      assert.match(page, /Test MCP client/);

      // A post already waiting goes out only through a decision: publishing it is refused, as over
      // REST, and its request (the schedule) stays the one to decide on.
      const again = (await client.callTool({
        name: 'publish_post',
        arguments: { id: held.structuredContent.post.id },
      })) as Json;
      assert.equal(again.isError, true, text(again));
      assert.equal(again.structuredContent.error.code, 'invalid_status');
      // The way forward is named as the assistant can take it: the approve_post tool.
      assert.match(text(again), /approve_post/);
      // Publishing an existing draft also waits for approval; the user then approves in the app.
      const draft = (await client.callTool({
        name: 'create_post',
        arguments: { message: 'Needs a yes now', accountIds: [accountId], postingMode: 'draft' },
      })) as Json;
      assert.equal(draft.structuredContent.status, 'draft', text(draft));
      const now = (await client.callTool({
        name: 'publish_post',
        arguments: { id: draft.structuredContent.id },
      })) as Json;
      assert.equal(now.structuredContent.outcome, 'approval_required');
      assert.equal(now.structuredContent.post.approval.reason, 'assistants');
      assert.equal(env.telegram.sent.length, sent);
      // The member who granted the assistant confirms its posts: approving performs what it asked.
      const scheduled = await browser.json(`/api/v1/posts/${held.structuredContent.post.id}/approve`, {
        json: {},
      });
      assert.equal(scheduled.body.status, 'scheduled');
      assert.equal(scheduled.body.scheduledAt, when);
      const approved = await browser.json(`/api/v1/posts/${draft.structuredContent.id}/approve`, {
        json: {},
      });
      assert.equal(approved.body.status, 'posted');
      assert.equal(env.telegram.sent.at(-1)!.text, 'Needs a yes now');
      await browser.json('/api/v1/mcp-clients/settings', {
        method: 'PUT',
        json: { assistantsMustConfirm: false },
      });
    });

    test('resources, templates and prompts; subscribers hear a scheduled post being dispatched', async () => {
      const { client: browser } = await signUp(env.app.url, 'subscribe');
      const accountId = await connectTelegram(browser, '@news');
      const mcp = await confirmingClient(env.app.url, browser);

      const { resources } = await mcp.client.listResources();
      assert.ok(resources.some((r) => r.uri === 'postwave://accounts'));
      const { resourceTemplates } = await mcp.client.listResourceTemplates();
      assert.deepEqual(
        resourceTemplates.map((t) => t.uriTemplate),
        ['postwave://posts/{id}'],
      );
      const accounts = await mcp.client.readResource({ uri: 'postwave://accounts' });
      assert.equal(JSON.parse((accounts.contents[0] as Json).text).accounts[0].id, accountId);
      assert.equal(mcp.client.getServerCapabilities()?.resources?.subscribe, true);

      const rules = (await mcp.client.callTool({ name: 'get_platform_rules', arguments: {} })) as Json;
      assert.equal(rules.structuredContent.accounts[0].accountId, accountId);
      assert.equal(rules.structuredContent.accounts[0].name, 'Telegram');
      assert.ok(Array.isArray(rules.structuredContent.accounts[0].options));

      const { prompts } = await mcp.client.listPrompts();
      const names = prompts.map((p) => p.name);
      for (const name of ['announce', 'thread_from_text']) assert.ok(names.includes(name), name);
      for (const prompt of prompts)
        assert.match(prompt.description ?? '', /Leads to: .*(validate_post|list_posts)/);
      const announce = await mcp.client.getPrompt({
        name: 'announce',
        arguments: { topic: 'our new release', accounts: accountId },
      });
      const guide = announce.messages.map((m) => (m.content as Json).text ?? '').join('\n');
      assert.match(guide, /validate_post/);
      assert.match(guide, /create_post/);
      assert.match(guide, /our new release/);
      const thread = await mcp.client.getPrompt({
        name: 'thread_from_text',
        arguments: { text: 'One. Two. Three.', account: accountId },
      });
      assert.ok(thread.messages.length >= 1);

      // Schedule a post a moment ahead (confirmed), subscribe, dispatch: the update arrives.
      const heard = updates(mcp.client);
      mcp.answers.push({ action: 'accept', content: { confirm: true } });
      const scheduled = (
        (await mcp.client.callTool({
          name: 'create_post',
          arguments: {
            message: 'Goes out by itself',
            accountIds: [accountId],
            postingMode: 'schedule',
            scheduledAt: new Date(Date.now() + 1500).toISOString(),
          },
        })) as Json
      ).structuredContent;
      assert.equal(scheduled.status, 'scheduled');
      const uri = `postwave://posts/${scheduled.id}`;
      await mcp.client.subscribeResource({ uri });
      const read = await mcp.client.readResource({ uri });
      assert.equal(JSON.parse((read.contents[0] as Json).text).status, 'scheduled');
      await new Promise((r) => setTimeout(r, 1600));
      assert.equal((await dispatch(env.app)).status, 200);
      await heard.waitFor(uri);
      const done = JSON.parse(((await mcp.client.readResource({ uri })).contents[0] as Json).text);
      assert.equal(done.status, 'posted');
      assert.equal(done.results[0].status, 'posted');
      assert.ok(
        done.history.some((e: Json) => e.action === 'scheduled' && e.actorName === 'Test MCP client'),
      );

      // Accounts: connecting another one updates postwave://accounts.
      await mcp.client.subscribeResource({ uri: 'postwave://accounts' });
      const second = await connectTelegram(browser, '@updates');
      await heard.waitFor('postwave://accounts');
      const now = JSON.parse(
        ((await mcp.client.readResource({ uri: 'postwave://accounts' })).contents[0] as Json).text,
      );
      assert.ok(now.accounts.some((a: Json) => a.id === second));

      // Someone else's post cannot be subscribed to (nor read).
      const other = await signUp(env.app.url, 'subscribe-other');
      const otherAccount = await connectTelegram(other.client, '@updates');
      const theirs = await other.client.json('/api/v1/posts', {
        json: { message: 'mine', accountIds: [otherAccount], postingMode: 'draft' },
      });
      await assert.rejects(mcp.client.subscribeResource({ uri: `postwave://posts/${theirs.body.id}` }));
      await assert.rejects(mcp.client.readResource({ uri: `postwave://posts/${theirs.body.id}` }));
      await mcp.client.close();
    });

    test('sessions: a stateless call still works, an unknown session is 404, another user cannot use a session', async () => {
      const a = await signUp(env.app.url, 'session-a');
      const b = await signUp(env.app.url, 'session-b');
      const ca = await connect(env.app.url, a.client);
      const cb = await connect(env.app.url, b.client);
      assert.equal((await rawMcp(env.app.url, ca.provider.saved!.access_token)).status, 200);
      const sessionId = (ca.client.transport as Json).sessionId as string;
      assert.ok(sessionId, 'initialize opened a session');
      const post = (token: string, session: string) =>
        fetch(`${env.app.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
            'mcp-session-id': session,
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        });
      assert.equal((await post(ca.provider.saved!.access_token, sessionId)).status, 200);
      assert.equal((await post(cb.provider.saved!.access_token, sessionId)).status, 404);
      assert.equal((await post(ca.provider.saved!.access_token, 'no-such-session')).status, 404);
      const get = await fetch(`${env.app.url}/mcp`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${ca.provider.saved!.access_token}` },
      });
      assert.equal(get.status, 405);
      await ca.client.close();
      await cb.client.close();
    });

    if (backend === 'postgres') {
      test('a status change on one instance reaches a subscriber on another (LISTEN/NOTIFY)', async () => {
        const second = await startApp('pglite', {
          DATABASE_URL: env.app.databaseUrl!,
          TELEGRAM_API_URL: env.telegram.url,
        });
        try {
          // A personal API token also opens /mcp; the second instance shares the database.
          const { session: browser, api } = await userWithToken(env.app.url, 'cross');
          const accountId = await connectTelegram(browser, '@news');
          const scheduled = await browser.json('/api/v1/posts', {
            json: {
              message: 'Across instances',
              accountIds: [accountId],
              postingMode: 'schedule',
              scheduledAt: new Date(Date.now() + 1500).toISOString(),
            },
          });
          assert.equal(scheduled.status, 201);
          const client = new SdkClient({ name: 'second-instance', version: '1.0.0' });
          await client.connect(
            new StreamableHTTPClientTransport(new URL(`${second.url}/mcp`), {
              requestInit: { headers: { authorization: `Bearer ${api.token}` } },
            }),
          );
          const heard = updates(client);
          const uri = `postwave://posts/${scheduled.body.id}`;
          await client.subscribeResource({ uri });
          await new Promise((r) => setTimeout(r, 1600));
          assert.equal((await dispatch(env.app)).status, 200);
          await heard.waitFor(uri);
          await client.close();
        } finally {
          await second.stop();
        }
      });
    }
  });
}
