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
 * docs/mcp.md#tools: failures are tool errors whose structuredContent.error is the REST problem,
 * bad arguments included; validate_post answers a request breaking its own rules with valid: false.
 */
for (const backend of backends()) {
  describe(`MCP tool input errors (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('validate_post: rule violations are valid: false, a wrong shape is the REST 400', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-input');
      await connectTelegram(browser);
      const { client } = await connect(env.app.url, browser);

      const none = await client.callTool({
        name: 'validate_post',
        arguments: { message: 'hi', accountIds: [] },
      });
      assert.equal(none.isError, undefined, JSON.stringify(none.content));
      const answer = none.structuredContent as ToolJson;
      assert.equal(answer.valid, false);
      assert.deepEqual(answer.errors, [
        { path: 'accountIds', code: 'too_small', message: 'Choose at least one account' },
      ]);
      // The advertised schema still says what a valid post needs.
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === 'validate_post')!.inputSchema as ToolJson;
      assert.equal(schema.properties.accountIds.minItems, 1);

      const tooLong = await client.callTool({
        name: 'validate_post',
        arguments: { message: 'x'.repeat(100_001), accountIds: ['a'] },
      });
      assert.equal((tooLong.structuredContent as ToolJson).valid, false);
      assert.equal((tooLong.structuredContent as ToolJson).errors[0].path, 'message');

      const wrongType = await client.callTool({
        name: 'validate_post',
        arguments: { message: 'hi', accountIds: 'a' },
      });
      assert.equal(wrongType.isError, true);
      assert.equal((wrongType.structuredContent as ToolJson).error.code, 'invalid_request');
      assert.equal((wrongType.structuredContent as ToolJson).error.errors[0].path, 'accountIds');
    });

    test('other tools: schema failures are tool errors carrying the REST problem with paths', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-input2');
      const accountId = await connectTelegram(browser);
      const sent = env.telegram.sent.length;
      const { client } = await connect(env.app.url, browser);

      const cases: [string, Record<string, unknown>, number, string, string][] = [
        ['create_post', { message: 'x', accountIds: [accountId] }, 400, 'invalid_request', 'postingMode'],
        [
          'create_post',
          { message: 1, accountIds: [accountId], postingMode: 'now' },
          400,
          'invalid_request',
          'message',
        ],
        [
          'create_post',
          { message: 'x', accountIds: [], postingMode: 'now' },
          422,
          'validation_failed',
          'accountIds',
        ],
        ['list_posts', { limit: 500 }, 422, 'validation_failed', 'limit'],
        ['get_post', {}, 400, 'invalid_request', 'id'],
      ];
      for (const [name, args, status, code, path] of cases) {
        const result = await client.callTool({ name, arguments: args });
        const label = `${name} ${JSON.stringify(args)}`;
        assert.equal(result.isError, true, label);
        const error = (result.structuredContent as ToolJson)?.error;
        assert.ok(error, `${label}: structuredContent.error`);
        assert.equal(error.status, status, label);
        assert.equal(error.code, code, label);
        assert.equal(error.errors[0].path, path, label);
        assert.doesNotMatch((result.content as ToolJson)[0].text, /MCP error|-32602/, label);
      }
      const empty = await client.callTool({
        name: 'create_post',
        arguments: { message: 'x', accountIds: [], postingMode: 'now' },
      });
      assert.equal(
        (empty.structuredContent as ToolJson).error.errors[0].message,
        'Choose at least one account',
      );
      assert.equal(env.telegram.sent.length, sent, 'nothing was published');
    });

    test('resources/read and prompts/get errors carry the protocol prefix once', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-input3');
      const { client } = await connect(env.app.url, browser);
      const messages: string[] = [];
      for (const call of [
        () => client.readResource({ uri: 'postwave://posts/00000000-0000-0000-0000-000000000000' }),
        () => client.getPrompt({ name: 'no_such_prompt' }),
      ]) {
        await assert.rejects(call(), (error: Error & { code?: number }) => {
          messages.push(error.message);
          assert.equal(error.code, -32602);
          return true;
        });
      }
      for (const message of messages) {
        assert.match(message, /^MCP error -32602: /);
        assert.doesNotMatch(message, /MCP error -32602: MCP error/);
      }
    });
  });
}
