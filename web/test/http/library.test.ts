import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import { type Client, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect } from '../helpers/oauth.ts';
import { assertWrongType } from '../helpers/problems.ts';
import { bots } from '../helpers/telegram-bots.ts';
import { assertForbidden, buildTeam, roles } from './workspaces/team.ts';

/** Templates and snippets (contract section I, docs/library.md) over HTTP, MCP and the CLI. */

const cliMain = resolve(import.meta.dirname, '..', '..', '..', 'cli', 'src', 'main.ts');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  const child = spawn(process.execPath, [cliMain, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  return new Promise((done) => child.on('exit', (code) => done({ code: code ?? 1, stdout })));
}

/** 422 `validation_failed` whose issues name `path` (with `code`, when given). */
function assertInvalid(
  res: { status: number; body: { code: string; errors?: { path?: string; code: string }[] } },
  path: string,
  code?: string,
) {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.code, 'validation_failed');
  assert.ok(
    res.body.errors?.some((e) => e.path === path && (!code || e.code === code)),
    `an issue at ${path}${code ? ` (${code})` : ''}: ${JSON.stringify(res.body.errors)}`,
  );
}

for (const backend of backends()) {
  describe(`templates and snippets (${backend})`, () => {
    let env: TelegramApp;
    let api: Client;
    let session: Client;
    let token: string;
    let news: string;
    let updates: string;
    let stranger: Client;
    let strangerAccount: string;

    before(async () => {
      env = await startTelegramApp(backend, { LOG_LEVEL: 'info' });
      const user = await userWithToken(env.app.url, 'library');
      api = user.api;
      session = user.session;
      token = api.token!;
      news = await connectTelegram(api, '@news', bots.main);
      updates = await connectTelegram(api, '@updates', bots.second);
      stranger = (await userWithToken(env.app.url, 'stranger')).api;
      strangerAccount = await connectTelegram(stranger, '@news', bots.main);
    });
    after(() => env?.stop());

    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'photo.png');
      const res = await api.json('/api/v1/upload', { method: 'POST', body: form });
      assert.ok([200, 201].includes(res.status), JSON.stringify(res.body)); // 200: the workspace had these bytes
      return res.body.media as { key: string; id: string };
    };

    const createTemplate = async (json: Record<string, unknown>) => {
      const res = await api.json('/api/v1/templates', { json });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };

    test('template CRUD keeps every content field; the routes are in /openapi.json', async () => {
      const media = await upload();
      const created = await createTemplate({
        name: '  Weekly digest  ',
        message: 'This week:',
        accountIds: [news, updates, news],
        media: [{ ...media, altText: 'A chart' }],
        accountOptions: { [news]: { firstComment: 'More in the comments' } },
        overrides: { [updates]: { message: 'Short week' } },
        thread: [{ message: 'Part two' }],
      });
      assert.equal(created.name, 'Weekly digest');
      assert.deepEqual(created.accountIds, [news, updates]);
      assert.equal(created.media[0].key, media.key);
      assert.equal(created.media[0].altText, 'A chart');
      assert.deepEqual(created.overrides, { [updates]: { message: 'Short week' } });
      assert.deepEqual(created.thread, [{ message: 'Part two', media: [] }]);
      assert.deepEqual(Object.keys(created).sort(), [
        'accountIds',
        'accountOptions',
        'createdAt',
        'id',
        'media',
        'message',
        'name',
        'overrides',
        'thread',
        'updatedAt',
      ]);

      const got = await api.json(`/api/v1/templates/${created.id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, created);
      const list = await api.json('/api/v1/templates');
      assert.ok(list.body.templates.some((t: { id: string }) => t.id === created.id));

      // PATCH replaces the fields it gives; dropping an account drops its override.
      const patched = await api.json(`/api/v1/templates/${created.id}`, {
        method: 'PATCH',
        json: { message: 'This week, again:', accountIds: [news] },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.message, 'This week, again:');
      assert.deepEqual(patched.body.overrides, {});
      assert.equal(patched.body.media.length, 1, 'media not given stays');
      assert.equal(patched.body.name, 'Weekly digest');

      const openapi = (await api.json('/openapi.json')).body;
      for (const path of [
        '/api/v1/templates',
        '/api/v1/templates/{id}',
        '/api/v1/snippets',
        '/api/v1/snippets/{id}',
      ])
        assert.ok(openapi.paths[path], path);
      assert.ok(openapi.paths['/api/v1/posts'].post.description.includes('templateId'));

      assert.equal((await api.json(`/api/v1/templates/${created.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await api.json(`/api/v1/templates/${created.id}`)).status, 404);
      assert.equal((await api.json(`/api/v1/templates/${created.id}`, { method: 'DELETE' })).status, 404);
      assert.equal((await api.json('/api/v1/templates/not-a-uuid')).status, 404);
    });

    test('bad template content is 422 naming the field (a missing or wrong-typed one 400)', async () => {
      const post = (json: unknown) => api.json('/api/v1/templates', { json });
      // Contract B: a field missing or of the wrong type is 400 invalid_request, not 422.
      assertWrongType(await post({ message: 'no name' }), 'name');
      assertInvalid(await post({ name: '   ' }), 'name');
      assertWrongType(await post({ name: 'x', message: 42 }), 'message');
      assertInvalid(
        await post({ name: 'x', accountIds: [strangerAccount] }),
        'accountIds',
        'account_not_found',
      );
      assertInvalid(
        await post({ name: 'x', media: [{ key: 'missing.png' }] }),
        'media[0]',
        'media_not_found',
      );
      assertInvalid(
        await post({ name: 'x', accountIds: [news], overrides: { [updates]: { message: 'y' } } }),
        `overrides.${updates}`,
      );
      assertWrongType(await post({ name: 'x', thread: 'not a list' }), 'thread');
      const bad = await api.fetch('/api/v1/templates', {
        method: 'POST',
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(bad.status, 400);
      const template = await createTemplate({ name: 'ok' });
      assertInvalid(
        await api.json(`/api/v1/templates/${template.id}`, {
          method: 'PATCH',
          json: { accountIds: [strangerAccount] },
        }),
        'accountIds',
        'account_not_found',
      );
    });

    test('another workspace’s template or snippet is 404, and its templateId 422 (a non-string 400)', async () => {
      const template = await createTemplate({ name: 'mine', message: 'secret plan', accountIds: [news] });
      const snippet = await api.json('/api/v1/snippets', {
        json: { name: 'sig', kind: 'signature', body: '— me' },
      });
      assert.equal((await stranger.json(`/api/v1/templates/${template.id}`)).status, 404);
      assert.equal(
        (await stranger.json(`/api/v1/templates/${template.id}`, { method: 'PATCH', json: { name: 'x' } }))
          .status,
        404,
      );
      assert.equal(
        (await stranger.json(`/api/v1/templates/${template.id}`, { method: 'DELETE' })).status,
        404,
      );
      assert.ok(
        !(await stranger.json('/api/v1/templates')).body.templates.some(
          (t: { id: string }) => t.id === template.id,
        ),
      );
      assert.equal(
        (await stranger.json(`/api/v1/snippets/${snippet.body.id}`, { method: 'PATCH', json: { body: 'x' } }))
          .status,
        404,
      );
      assert.equal(
        (await stranger.json(`/api/v1/snippets/${snippet.body.id}`, { method: 'DELETE' })).status,
        404,
      );
      assert.deepEqual((await stranger.json('/api/v1/snippets')).body.snippets, []);
      const stolen = await stranger.json('/api/v1/posts', {
        json: { templateId: template.id, accountIds: [strangerAccount], postingMode: 'draft' },
      });
      assertInvalid(stolen, 'templateId', 'template_not_found');
      assert.ok(!JSON.stringify(stolen.body).includes('secret plan'));
      assertInvalid(
        await api.json('/api/v1/posts', { json: { templateId: crypto.randomUUID(), postingMode: 'draft' } }),
        'templateId',
        'template_not_found',
      );
      // A templateId of the wrong type is a malformed request (contract B), not an unknown template.
      assertWrongType(
        await api.json('/api/v1/posts', { json: { templateId: 7, postingMode: 'draft' } }),
        'templateId',
      );
    });

    test('a post from a template: sent fields win whole, the rest is the template’s; the post outlives the template', async () => {
      const media = await upload();
      const template = await createTemplate({
        name: 'Launch',
        message: 'We launched!',
        accountIds: [news, updates],
        media: [media],
        accountOptions: { [updates]: { disableNotification: true } },
        overrides: { [updates]: { message: 'Launched (updates)' } },
        thread: [{ message: 'Details follow' }],
      });
      const plain = await api.json('/api/v1/posts', {
        json: { templateId: template.id, postingMode: 'draft' },
      });
      assert.equal(plain.status, 201, JSON.stringify(plain.body));
      assert.equal(plain.body.message, 'We launched!');
      assert.deepEqual(plain.body.accountIds, [news, updates]);
      assert.equal(plain.body.media[0].key, media.key);
      assert.deepEqual(plain.body.overrides, { [updates]: { message: 'Launched (updates)' } });
      assert.deepEqual(plain.body.accountOptions, { [updates]: { disableNotification: true } });
      assert.equal(plain.body.thread[0].message, 'Details follow');

      // Sent fields replace the template's whole field; accounts left out take their overrides and options along.
      const mixed = await api.json('/api/v1/posts', {
        json: {
          templateId: template.id,
          postingMode: 'draft',
          message: 'Mine',
          accountIds: [news],
          media: [],
        },
      });
      assert.equal(mixed.status, 201, JSON.stringify(mixed.body));
      assert.equal(mixed.body.message, 'Mine');
      assert.deepEqual(mixed.body.accountIds, [news]);
      assert.deepEqual(mixed.body.media, []);
      assert.deepEqual(mixed.body.overrides, {});
      assert.deepEqual(mixed.body.accountOptions, {});
      assert.equal(mixed.body.thread[0].message, 'Details follow');
      const noThread = await api.json('/api/v1/posts', {
        json: { templateId: template.id, postingMode: 'draft', thread: [], overrides: {} },
      });
      assert.deepEqual(noThread.body.thread, []);
      assert.deepEqual(noThread.body.overrides, {});

      // Published now: validated and sent like any post.
      const now = await api.json('/api/v1/posts', {
        json: { templateId: template.id, postingMode: 'now', accountIds: [news], media: [], thread: [] },
      });
      assert.equal(now.status, 201, JSON.stringify(now.body));
      assert.equal(now.body.status, 'posted');
      assert.ok(env.telegram.sent.some((m) => m.text === 'We launched!'));

      // Changing, then deleting the template changes no post made from it.
      await api.json(`/api/v1/templates/${template.id}`, { method: 'PATCH', json: { message: 'Changed' } });
      assert.equal((await api.json(`/api/v1/templates/${template.id}`, { method: 'DELETE' })).status, 204);
      const kept = await api.json(`/api/v1/posts/${plain.body.id}`);
      assert.equal(kept.status, 200);
      assert.equal(kept.body.message, 'We launched!');
      assert.equal(kept.body.media[0].key, media.key);
      assert.deepEqual(kept.body.overrides, plain.body.overrides);
      assertInvalid(
        await api.json('/api/v1/posts', { json: { templateId: template.id, postingMode: 'draft' } }),
        'templateId',
      );
    });

    test('snippets: CRUD, one default signature per account (moves), 422 naming the field, nothing added to posts', async () => {
      const create = (json: unknown) => api.json('/api/v1/snippets', { json });
      const first = await create({
        name: 'Team',
        kind: 'signature',
        body: '— the team',
        defaultFor: [news, updates],
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual(first.body.defaultFor, [news, updates].sort());
      assert.deepEqual(Object.keys(first.body).sort(), [
        'body',
        'createdAt',
        'defaultFor',
        'id',
        'kind',
        'name',
        'updatedAt',
      ]);
      const second = await create({ name: 'Ann', kind: 'signature', body: '— Ann', defaultFor: [news] });
      assert.equal(second.status, 201);
      const listed = async () =>
        Object.fromEntries(
          (await api.json('/api/v1/snippets')).body.snippets.map(
            (s: { id: string; defaultFor: string[] }) => [s.id, s.defaultFor],
          ),
        );
      assert.deepEqual((await listed())[first.body.id], [updates], 'news moved to the second signature');
      assert.deepEqual((await listed())[second.body.id], [news]);

      const tags = await create({ name: 'Launch tags', kind: 'hashtags', body: '#launch #ship' });
      assert.equal(tags.status, 201);
      assertInvalid(
        await create({ name: 'x', kind: 'hashtags', body: '#a', defaultFor: [news] }),
        'defaultFor',
        'default_needs_signature',
      );
      assertInvalid(
        await create({ name: 'x', kind: 'signature', body: 'a', defaultFor: [strangerAccount] }),
        'defaultFor',
        'account_not_found',
      );
      assertInvalid(await create({ name: 'x', kind: 'poem', body: 'a' }), 'kind');
      assertInvalid(await create({ name: 'x', kind: 'text', body: '' }), 'body');
      // Only spaces (or line breaks) is as empty as nothing, on create and on update.
      assertInvalid(await create({ name: 'x', kind: 'text', body: '   ' }), 'body');
      assertInvalid(await create({ name: 'x', kind: 'hashtags', body: ' \n\t ' }), 'body');
      assertInvalid(
        await api.json(`/api/v1/snippets/${second.body.id}`, { method: 'PATCH', json: { body: '  ' } }),
        'body',
      );
      assertWrongType(await create({ kind: 'text', body: 'a' }), 'name');
      assertInvalid(
        await api.json(`/api/v1/snippets/${second.body.id}`, { method: 'PATCH', json: { kind: 'text' } }),
        'defaultFor',
        'default_needs_signature',
      );

      const edited = await api.json(`/api/v1/snippets/${second.body.id}`, {
        method: 'PATCH',
        json: { body: '— Ann B.', defaultFor: [news, updates] },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal(edited.body.body, '— Ann B.');
      assert.deepEqual((await listed())[first.body.id], []);
      const cleared = await api.json(`/api/v1/snippets/${second.body.id}`, {
        method: 'PATCH',
        json: { kind: 'text', defaultFor: [] },
      });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.kind, 'text');

      // The API never adds a default signature to a post.
      await api.json(`/api/v1/snippets/${first.body.id}`, { method: 'PATCH', json: { defaultFor: [news] } });
      const post = await api.json('/api/v1/posts', {
        json: { message: 'Plain', accountIds: [news], postingMode: 'draft' },
      });
      assert.equal(post.body.message, 'Plain');

      assert.equal((await api.json(`/api/v1/snippets/${first.body.id}`, { method: 'DELETE' })).status, 204);
      assert.ok(!(first.body.id in (await listed())));
      assert.equal((await api.json(`/api/v1/snippets/${first.body.id}`, { method: 'DELETE' })).status, 404);
    });

    test('MCP list_templates and create_post with templateId; CLI templates and post --template', async () => {
      const template = await createTemplate({ name: 'From tools', message: 'Tool text', accountIds: [news] });
      const { client: mcp } = await connect(env.app.url, session);
      const tool = async (name: string, args: Record<string, unknown>) => {
        const answer = await mcp.callTool({ name, arguments: args });
        assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
        // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
        return answer.structuredContent as any;
      };
      const listed = await tool('list_templates', {});
      assert.ok(
        listed.templates.some(
          (t: { id: string; name: string }) => t.id === template.id && t.name === 'From tools',
        ),
      );
      const draft = await tool('create_post', { templateId: template.id, postingMode: 'draft' });
      assert.equal(draft.message, 'Tool text');
      assert.deepEqual(draft.accountIds, [news]);
      const own = await tool('create_post', {
        templateId: template.id,
        postingMode: 'draft',
        message: 'Own text',
      });
      assert.equal(own.message, 'Own text');
      const unknown = await mcp.callTool({
        name: 'create_post',
        arguments: { templateId: crypto.randomUUID(), postingMode: 'draft' },
      });
      assert.equal(unknown.isError, true);
      assert.match(JSON.stringify(unknown.content), /templateId/);
      await mcp.close();

      const cliEnv = {
        POSTWAVE_URL: env.app.url,
        POSTWAVE_TOKEN: token,
        POSTWAVE_CONFIG_DIR: env.app.dataDir,
      };
      const list = await cli(['templates', '--json'], cliEnv);
      assert.equal(list.code, 0);
      assert.ok(JSON.parse(list.stdout).templates.some((t: { id: string }) => t.id === template.id));
      const text = await cli(['templates'], cliEnv);
      assert.match(text.stdout, /From tools/);
      const posted = await cli(['post', '--template', template.id, '--draft', '--json'], cliEnv);
      assert.equal(posted.code, 0, posted.stdout);
      assert.equal(JSON.parse(posted.stdout).message, 'Tool text');
      const replaced = await cli(['post', 'CLI text', '-t', template.id, '--draft', '--json'], cliEnv);
      assert.equal(JSON.parse(replaced.stdout).message, 'CLI text');
      assert.deepEqual(JSON.parse(replaced.stdout).accountIds, [news]);
    });

    test('roles: every member reads templates and snippets; owners and admins change them', async () => {
      const team = await buildTeam(env.app, `library-${backend}`);
      const owner = team.members.owner.api;
      const account = await connectTelegram(owner, '@news', bots.main);
      const template = await owner.json('/api/v1/templates', {
        json: { name: 'T', message: 'm', accountIds: [account] },
      });
      assert.equal(template.status, 201);
      const snippet = await owner.json('/api/v1/snippets', { json: { name: 'S', kind: 'text', body: 'b' } });
      for (const role of roles) {
        const api = team.members[role].api;
        assert.equal((await api.json('/api/v1/templates')).status, 200, role);
        assert.equal((await api.json(`/api/v1/templates/${template.body.id}`)).status, 200, role);
        assert.equal((await api.json('/api/v1/snippets')).status, 200, role);
        const write = await api.json('/api/v1/templates', { json: { name: `by ${role}` } });
        const snip = await api.json(`/api/v1/snippets/${snippet.body.id}`, {
          method: 'PATCH',
          json: { name: role },
        });
        const del = await api.json(`/api/v1/templates/${template.body.id}`, {
          method: 'PATCH',
          json: { name: role },
        });
        if (role === 'owner' || role === 'admin') {
          assert.equal(write.status, 201, role);
          assert.equal(snip.status, 200, role);
          assert.equal(del.status, 200, role);
        } else {
          assertForbidden(write, 'admin');
          assertForbidden(snip, 'admin');
          assertForbidden(del, 'admin');
        }
      }
      // An editor posts from a template without managing templates.
      const fromTemplate = await team.members.editor.api.json('/api/v1/posts', {
        json: { templateId: template.body.id, postingMode: 'draft' },
      });
      assert.equal(fromTemplate.status, 201, JSON.stringify(fromTemplate.body));
      // The personal workspace of the first user never sees the team's.
      assert.equal((await api.json(`/api/v1/templates/${template.body.id}`)).status, 404);
    });
  });
}
