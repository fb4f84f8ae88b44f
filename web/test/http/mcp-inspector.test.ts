import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { authorize, exchange, registerClient, type Tokens } from '../helpers/oauth.ts';

/** The MCP Inspector's launcher (the pinned devDependency), run in `--cli` mode. */
const inspector = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runInspector(home: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inspector, '--cli', ...args], {
      env: { ...process.env, HOME: home, NO_COLOR: '1', MCP_CATALOG_PATH: join(home, 'mcp.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

for (const backend of backends()) {
  describe(`MCP Inspector CLI against /mcp (${backend})`, () => {
    let env: TelegramApp;
    let home: string;
    let token: string;
    let accountId: string;
    before(async () => {
      env = await startTelegramApp(backend);
      home = mkdtempSync(join(tmpdir(), 'postwave-inspector-'));
      const { client: browser } = await signUp(env.app.url, 'inspector');
      accountId = await connectTelegram(browser, '@news');
      const clientId = await registerClient(env.app.url);
      const tokens = (await (
        await exchange(env.app.url, clientId, await authorize(env.app.url, browser, clientId))
      ).json()) as Tokens;
      token = tokens.access_token;
    });
    after(async () => {
      await env?.stop();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    const target = () => [
      `${env.app.url}/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${token}`,
    ];

    test('tools/list --strict: every tool schema is portable (no error, no warning) and annotated', async () => {
      const run = await runInspector(home, [...target(), '--method', 'tools/list', '--strict']);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /Warning|Error|portability/i, run.stderr);
      const { tools } = JSON.parse(run.stdout);
      assert.ok(tools.length >= 12);
      for (const tool of tools) {
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
          assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name}.${hint}`);
      }
      const byName = new Map(tools.map((t: { name: string }) => [t.name, t]));
      assert.equal(
        (byName.get('list_accounts') as { annotations: { readOnlyHint: boolean } }).annotations.readOnlyHint,
        true,
      );
      assert.equal(
        (byName.get('delete_post') as { annotations: { destructiveHint: boolean } }).annotations
          .destructiveHint,
        true,
      );
    });

    test('resources/list, resources/templates/list and prompts/list', async () => {
      const resources = await runInspector(home, [...target(), '--method', 'resources/list']);
      assert.equal(resources.code, 0, resources.stderr);
      assert.ok(
        JSON.parse(resources.stdout).resources.some((r: { uri: string }) => r.uri === 'postwave://accounts'),
      );
      const templates = await runInspector(home, [...target(), '--method', 'resources/templates/list']);
      assert.equal(templates.code, 0, templates.stderr);
      assert.deepEqual(
        JSON.parse(templates.stdout).resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate),
        ['postwave://posts/{id}'],
      );
      const prompts = await runInspector(home, [...target(), '--method', 'prompts/list']);
      assert.equal(prompts.code, 0, prompts.stderr);
      const names = JSON.parse(prompts.stdout).prompts.map((p: { name: string }) => p.name);
      assert.ok(names.includes('announce') && names.includes('thread_from_text'), names.join());
    });

    test('tools/call: list_accounts and validate_post', async () => {
      const listed = await runInspector(home, [
        ...target(),
        '--method',
        'tools/call',
        '--tool-name',
        'list_accounts',
      ]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(JSON.parse(listed.stdout).structuredContent.accounts[0].id, accountId);
      const validated = await runInspector(home, [
        ...target(),
        '--method',
        'tools/call',
        '--tool-name',
        'validate_post',
        '--tool-arg',
        'message=Hello from the Inspector',
        `accountIds=["${accountId}"]`,
      ]);
      assert.equal(validated.code, 0, validated.stderr);
      assert.equal(JSON.parse(validated.stdout).structuredContent.valid, true);
    });

    test('without a token the Inspector is refused', async () => {
      const run = await runInspector(home, [
        `${env.app.url}/mcp`,
        '--transport',
        'http',
        '--method',
        'tools/list',
      ]);
      assert.notEqual(run.code, 0);
    });
  });
}
