import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../../../web/test/helpers/client.ts';
import { backends } from '../../../web/test/helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../../web/test/helpers/fixtures.ts';

const cliMain = resolve(import.meta.dirname, '..', '..', 'src', 'main.ts');

/*
 * Contract G through the CLI: where the workspace's approvals apply, `postwave post` (now, --at,
 * --queue) stores the post as pending_approval (202). The CLI says so in words (nothing is
 * published yet, what was asked for), not only a status name; --json stays the Scheduler's answer.
 */
for (const backend of backends()) {
  describe(`postwave and approvals (${backend})`, () => {
    let env: TelegramApp;
    let dir: string;
    before(async () => {
      env = await startTelegramApp(backend);
      dir = mkdtempSync(join(tmpdir(), 'pw-cli-approvals-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await env?.stop();
    });

    test('a post submitted for approval is reported as waiting, with what was asked for', async () => {
      const { client } = await signUp(env.app.url, 'cli-approvals');
      const accountId = await connectTelegram(client);
      const workspace = (await client.json('/api/v1/workspaces')).body.workspaces[0];
      const settings = await client.json(`/api/v1/workspaces/${workspace.id}`, {
        method: 'PATCH',
        json: { settings: { approvals: 'everyone' } },
      });
      assert.equal(settings.status, 200);
      const token = (await client.json('/api/v1/tokens', { json: { name: 'cli' } })).body.token;
      const postwave = (...args: string[]) => {
        const run = spawnSync(process.execPath, [cliMain, ...args], {
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            POSTWAVE_CONFIG_DIR: dir,
            POSTWAVE_URL: env.app.url,
            POSTWAVE_TOKEN: token,
          },
          encoding: 'utf8',
        });
        return { code: run.status, stdout: run.stdout, stderr: run.stderr };
      };
      const sent = env.telegram.sent.length;

      const now = postwave('post', 'Needs a yes', '-a', accountId);
      assert.equal(now.code, 0, now.stderr);
      assert.equal(now.stderr, '');
      assert.match(now.stdout, /^Post \S+: pending_approval\n/);
      assert.match(
        now.stdout,
        /\nSubmitted for approval \(publish now\): nothing is published until a member approves it\.\n/,
      );

      const later = postwave('post', 'Later, if approved', '-a', accountId, '--at', '2030-01-01T09:00:00Z');
      assert.equal(later.code, 0, later.stderr);
      assert.match(
        later.stdout,
        /\nSubmitted for approval \(schedule for 2030-01-01T09:00:00\.000Z\): nothing is published until a member approves it\.\n/,
      );
      const id = /^Post (\S+):/.exec(later.stdout)![1]!;
      const shown = postwave('posts', 'show', id);
      assert.match(shown.stdout, /\nSubmitted for approval \(schedule for 2030-01-01T09:00:00\.000Z\)/);

      const json = postwave('posts', 'show', id, '--json');
      assert.equal(JSON.parse(json.stdout).approval.requested.postingMode, 'schedule');
      // Sent back with a comment: a draft again, and the CLI says who asked for what.
      // (by a client through a review link: the author never decides on their own post).
      const link = await client.json(`/api/v1/posts/${id}/review-links`, { json: {} });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      const reviewToken = new URL(link.body.url).pathname.split('/').at(-1);
      const decided = await fetch(`${env.app.url}/api/v1/review/${reviewToken}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Dana (client)', decision: 'reject', comment: 'Wrong date' }),
      });
      assert.equal(decided.status, 200, await decided.clone().text());
      assert.match(
        postwave('posts', 'show', id).stdout,
        /: draft\nSent back by Dana \(client\): Wrong date\n/,
      );
      assert.equal(env.telegram.sent.length, sent, 'nothing was published');
    });
  });
}
