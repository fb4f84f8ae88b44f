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
 * `postwave post --queue --at <time>` (its --help): the first free slot of the queue at or after
 * that time, which is what the Scheduler makes of `postingMode: "queue"` with `scheduledAt`
 * (docs/import-export.md: the earliest time wanted). Not a conflict between two options.
 */
for (const backend of backends()) {
  describe(`postwave post --queue --at (${backend})`, () => {
    let env: TelegramApp;
    let dir: string;
    before(async () => {
      env = await startTelegramApp(backend);
      dir = mkdtempSync(join(tmpdir(), 'pw-cli-queue-at-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await env?.stop();
    });

    test('takes the first free slot at or after --at', async () => {
      const { client } = await signUp(env.app.url, 'cli-queue-at');
      const accountId = await connectTelegram(client);
      const token = (await client.json('/api/v1/tokens', { json: { name: 'cli' } })).body.token;
      const postwave = (...args: string[]) =>
        spawnSync(process.execPath, [cliMain, ...args], {
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            POSTWAVE_CONFIG_DIR: dir,
            POSTWAVE_URL: env.app.url,
            POSTWAVE_TOKEN: token,
          },
          encoding: 'utf8',
        });
      const set = postwave('queue', 'set', accountId, '--timezone', 'UTC', '--slot', 'mon@09:00');
      assert.equal(set.status, 0, set.stderr);
      // 2030-01-01 is a Tuesday: the next Monday 09:00 is the 7th.
      const queued = postwave(
        'post',
        'Later in the queue',
        '-a',
        accountId,
        '--queue',
        '--at',
        '2030-01-01T00:00:00Z',
        '--json',
      );
      assert.equal(queued.status, 0, queued.stderr);
      const post = JSON.parse(queued.stdout);
      assert.equal(post.status, 'scheduled');
      assert.equal(post.scheduledAt, '2030-01-07T09:00:00.000Z');
    });
  });
}
