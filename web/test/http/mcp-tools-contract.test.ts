import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect } from '../helpers/oauth.ts';

/** A tool's structured JSON, read field by field. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type ToolJson = any;

const mcpDoc = readFileSync(resolve(import.meta.dirname, '..', '..', '..', 'docs', 'mcp.md'), 'utf8');

/*
 * Contract B (MCP OAuth) and H name tools; docs/mcp.md's table lists every tool the server has.
 * Contract G: a resource of another workspace answers 404, exactly like a missing one. Through
 * MCP that is a tool error carrying the REST problem (not_found), from every tool that takes an
 * id; never an empty answer that reads as "nothing there".
 */
for (const backend of backends()) {
  describe(`MCP tools: the contract's, documented, scoped to the workspace (${backend})`, () => {
    let env: TelegramApp;
    before(async () => {
      env = await startTelegramApp(backend);
    });
    after(() => env?.stop());

    test('the tools the contract names exist, each with a description, all four hints and a row in docs/mcp.md', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-tools-doc');
      const { client } = await connect(env.app.url, browser);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ['list_accounts', 'validate_post', 'create_post', 'publish_post', 'schedule_post']
        .concat(['list_posts', 'get_post', 'update_post', 'delete_post', 'upload_media_from_url'])
        .concat(['presign_upload', 'get_post_metrics', 'get_analytics', 'get_best_times']))
        assert.ok(names.includes(name), `the contract's ${name}`);
      for (const tool of tools) {
        assert.ok((tool.description ?? '').length > 20, `${tool.name} says what it does`);
        assert.equal(tool.inputSchema.type, 'object', tool.name);
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
          assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`);
        assert.match(
          mcpDoc,
          new RegExp(`^\\| \`${tool.name}\` \\|`, 'm'),
          `docs/mcp.md has a row for ${tool.name}`,
        );
      }
    });

    test('a malformed tools/call (arguments not an object, no params) is -32602 Invalid params, not an internal error', async () => {
      const { client: browser } = await signUp(env.app.url, 'mcp-params');
      const { provider } = await connect(env.app.url, browser);
      const token = provider.saved!.access_token;
      const call = async (params: unknown) => {
        const response = await fetch(`${env.app.url}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
        });
        assert.equal(response.status, 200);
        return (await response.json()) as ToolJson;
      };
      for (const [params, message] of [
        [
          { name: 'get_post', arguments: [1, 2] },
          'Invalid params: params.arguments: Invalid input: expected record, received array',
        ],
        [
          { name: 'get_post', arguments: 'x' },
          'Invalid params: params.arguments: Invalid input: expected record, received string',
        ],
        [undefined, 'Invalid params: params: Invalid input: expected object, received undefined'],
        [
          { arguments: {} },
          'Invalid params: params.name: Invalid input: expected string, received undefined',
        ],
      ] as const) {
        const answer = await call(params);
        assert.equal(answer.id, 7);
        assert.deepEqual(answer.error, { code: -32602, message }, JSON.stringify(params));
      }
      // A well-formed call still reaches the tool, whose own input errors stay tool errors.
      const fine = await call({ name: 'get_post', arguments: {} });
      assert.equal(fine.result.isError, true);
      assert.equal(fine.result.structuredContent.error.code, 'invalid_request');
    });

    test('every tool that takes an account or post id answers not_found for another workspace’s', async () => {
      const { client: mine } = await signUp(env.app.url, 'mcp-ws-mine');
      const myAccount = await connectTelegram(mine);
      const { client: theirs } = await signUp(env.app.url, 'mcp-ws-theirs');
      const theirAccount = await connectTelegram(theirs, '@updates');
      const theirPost = (
        await theirs.json('/api/v1/posts', {
          json: { message: 'theirs', accountIds: [theirAccount], postingMode: 'now' },
        })
      ).body.id;
      const { client } = await connect(env.app.url, mine);

      const cases: [string, Record<string, unknown>, string][] = [
        ['get_post', { id: theirPost }, 'No such post'],
        ['update_post', { id: theirPost, message: 'mine now' }, 'No such post'],
        ['delete_post', { id: theirPost }, 'No such post'],
        ['publish_post', { id: theirPost }, 'No such post'],
        ['move_post_to_draft', { id: theirPost }, 'No such post'],
        ['get_post_metrics', { id: theirPost }, 'No such post'],
        ['get_best_times', { accountId: theirAccount }, 'No such account'],
        ['get_queue', { accountId: theirAccount }, 'No such account'],
        ['get_analytics', { accountIds: [theirAccount] }, 'No such account'],
        ['get_platform_rules', { accountIds: [theirAccount] }, 'No such account'],
        ['get_platform_rules', { accountIds: [myAccount, theirAccount] }, 'No such account'],
        ['get_platform_rules', { accountIds: ['no-such-account'] }, 'No such account'],
      ];
      for (const [name, args, detail] of cases) {
        const label = `${name} ${JSON.stringify(args)}`;
        const result = await client.callTool({ name, arguments: args });
        assert.equal(result.isError, true, `${label}: ${JSON.stringify(result.content)}`);
        const error = (result.structuredContent as ToolJson).error;
        assert.equal(error.status, 404, label);
        assert.equal(error.code, 'not_found', label);
        assert.equal(error.detail, detail, label);
        assert.doesNotMatch((result.content as ToolJson)[0].text, /theirs|@updates/, label);
      }

      // Prompt arguments naming accounts complete to mine only (docs/mcp.md#prompts), optional ones too.
      for (const [prompt, argument, value] of [
        ['announce', 'accounts', ''],
        ['plan_week', 'accounts', ''],
        ['thread_from_text', 'account', ''],
        ['adapt_for_platforms', 'accounts', '@ne'],
      ] as const) {
        const { completion } = await client.complete({
          ref: { type: 'ref/prompt', name: prompt },
          argument: { name: argument, value },
        });
        assert.deepEqual(completion.values, [myAccount], `${prompt}.${argument}`);
      }

      // My own account still gets its rules; without accountIds, every account of mine.
      const own = await client.callTool({
        name: 'get_platform_rules',
        arguments: { accountIds: [myAccount] },
      });
      assert.equal(own.isError, undefined);
      assert.deepEqual(
        (own.structuredContent as ToolJson).accounts.map((a: { accountId: string }) => a.accountId),
        [myAccount],
      );
      const all = await client.callTool({ name: 'get_platform_rules', arguments: {} });
      assert.equal((all.structuredContent as ToolJson).accounts.length, 1);
    });
  });
}
