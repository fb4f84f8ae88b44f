import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect } from '../helpers/oauth.ts';

/** A tool's structured JSON, read field by field. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type ToolJson = any;

/*
 * Contract B, Idempotency: "every MCP tool that publishes" takes a key (docs/idempotency.md#mcp-tools),
 * over the real Streamable HTTP transport and the same database store as REST.
 */
for (const backend of backends()) {
  describe(`MCP idempotencyKey (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('a retried create_post publishes once and answers the first result; other arguments are refused', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-idem');
      const accountId = await connectTelegram(browser);
      const { client } = await connect(env.app.url, browser);

      const { tools } = await client.listTools();
      for (const name of ['create_post', 'publish_post', 'schedule_post', 'approve_post']) {
        const schema = tools.find((t) => t.name === name)!.inputSchema as ToolJson;
        assert.equal(schema.properties.idempotencyKey.type, 'string', name);
        assert.ok(!schema.required?.includes('idempotencyKey'), name);
      }
      const listed = tools.find((t) => t.name === 'list_posts')!.inputSchema as ToolJson;
      assert.equal(listed.properties.idempotencyKey, undefined);

      const args = {
        message: 'Once only',
        accountIds: [accountId],
        postingMode: 'now',
        idempotencyKey: 'mcp-key-1',
      };
      const sentBefore = env.telegram.sent.length;
      const first = await client.callTool({ name: 'create_post', arguments: args });
      assert.equal(first.isError, undefined);
      assert.equal((first.structuredContent as ToolJson).status, 'posted');
      // Key order does not matter, as for a REST body.
      const again = await client.callTool({
        name: 'create_post',
        arguments: {
          idempotencyKey: 'mcp-key-1',
          postingMode: 'now',
          accountIds: [accountId],
          message: 'Once only',
        },
      });
      assert.equal(env.telegram.sent.length, sentBefore + 1, 'the fake platform received one message');
      assert.deepEqual(again.structuredContent, first.structuredContent);
      assert.deepEqual(again.content, first.content);
      assert.equal(again._meta?.['postwave/idempotentReplayed'], true);
      assert.equal(first._meta?.['postwave/idempotentReplayed'], undefined);
      const posts = (await client.callTool({ name: 'list_posts', arguments: {} }))
        .structuredContent as ToolJson;
      assert.equal(posts.posts.filter((p: ToolJson) => p.message === 'Once only').length, 1);

      const reused = await client.callTool({
        name: 'create_post',
        arguments: { ...args, message: 'Something else' },
      });
      assert.equal(reused.isError, true);
      assert.equal((reused.structuredContent as ToolJson).error.code, 'idempotency_key_reused');
      assert.equal((reused.structuredContent as ToolJson).error.status, 422);
      // The same key on another tool is another request too.
      const otherTool = await client.callTool({
        name: 'publish_post',
        arguments: { id: (first.structuredContent as ToolJson).id, idempotencyKey: 'mcp-key-1' },
      });
      assert.equal((otherTool.structuredContent as ToolJson).error.code, 'idempotency_key_reused');
      assert.equal(env.telegram.sent.length, sentBefore + 1);

      // Without a key every call publishes, as before.
      const { idempotencyKey: _, ...unkeyed } = args;
      await client.callTool({ name: 'create_post', arguments: unkeyed });
      assert.equal(env.telegram.sent.length, sentBefore + 2);
    });

    test('a malformed key is the REST 400; a refused call releases its key', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-idem-key');
      const accountId = await connectTelegram(browser);
      const { client } = await connect(env.app.url, browser);
      for (const idempotencyKey of ['', 'x'.repeat(256), 'tab\there']) {
        const bad = await client.callTool({
          name: 'create_post',
          arguments: { message: 'k', accountIds: [accountId], postingMode: 'draft', idempotencyKey },
        });
        assert.equal(bad.isError, true, JSON.stringify(idempotencyKey));
        const error = (bad.structuredContent as ToolJson).error;
        assert.equal(error.code, 'invalid_request');
        assert.equal(error.errors[0].path, 'idempotencyKey');
      }

      // 422 (a past time) publishes nothing and frees the key for the corrected call.
      const refused = await client.callTool({
        name: 'create_post',
        arguments: {
          message: 'later',
          accountIds: [accountId],
          postingMode: 'schedule',
          scheduledAt: '2020-01-01T00:00:00Z',
          idempotencyKey: 'retry-me',
        },
      });
      assert.equal(refused.isError, true);
      const corrected = await client.callTool({
        name: 'create_post',
        arguments: {
          message: 'later',
          accountIds: [accountId],
          postingMode: 'draft',
          idempotencyKey: 'retry-me',
        },
      });
      assert.equal(corrected.isError, undefined, JSON.stringify(corrected.structuredContent));
      assert.equal((corrected.structuredContent as ToolJson).status, 'draft');
    });
  });
}
