import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { userWithToken } from '../../../web/test/helpers/client.ts';
import { backends } from '../../../web/test/helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../../../web/test/helpers/fixtures.ts';

const cliMain = resolve(import.meta.dirname, '..', '..', 'src', 'main.ts');

function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(process.execPath, [cliMain, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

for (const backend of backends()) {
  describe(`CLI import and export (${backend})`, () => {
    let env: TelegramApp;
    let dir: string;
    before(async () => {
      env = await startTelegramApp(backend);
      dir = mkdtempSync(join(tmpdir(), 'pw-cli-import-'));
    });
    after(async () => {
      await env?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('postwave import --dry-run, import (twice: no duplicates), export -o and to stdout', async () => {
      const { api } = await userWithToken(env.app.url, 'cli-importer');
      await connectTelegram(api, '@news');
      const token = api.token!;
      const cliEnv = {
        POSTWAVE_URL: env.app.url,
        POSTWAVE_TOKEN: token,
        POSTWAVE_CONFIG_DIR: join(dir, 'cfg'),
      };

      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, `scheduledAt,message,accounts\n${inDays(1)},ok,@news\nsoon,bad date,@news\n`);
      const refused = await cli(['import', bad], cliEnv);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stdout, /invalid\s+scheduledAt: .*\(invalid_datetime\)/);
      assert.match(refused.stdout, /1 of 2 rows are invalid: nothing was imported/);

      const good = join(dir, 'posts.csv');
      writeFileSync(
        good,
        `scheduledAt,message,accounts\n${inDays(1)},"First, quoted",@news\n,A draft,@news\n`,
      );
      const dry = await cli(['import', good, '--dry-run'], cliEnv);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /All 2 rows are valid/);
      assert.equal((await api.json('/api/v1/posts')).body.posts.length, 0);

      const imported = await cli(['import', good, '--json'], cliEnv);
      assert.equal(imported.code, 0, imported.stderr);
      const report = JSON.parse(imported.stdout);
      assert.equal(report.committed, true);
      const again = await cli(['import', good], cliEnv);
      assert.equal(again.code, 0);
      assert.match(again.stdout, /Imported 2 posts/);
      assert.equal((await api.json('/api/v1/posts')).body.posts.length, 2);
      // Not a terminal: no progress bar drawn.
      assert.equal(imported.stderr, '');

      const out = join(dir, 'export.csv');
      const exported = await cli(['export', '-o', out, '--status', 'scheduled'], cliEnv);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stderr, /Wrote \d+ bytes/);
      const rows = parseCsv(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        rows.map((r) => r.message),
        ['First, quoted'],
      );
      const json = await cli(['export', '--format', 'json'], cliEnv);
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(
        JSON.parse(json.stdout)
          .map((p: { status: string }) => p.status)
          .sort(),
        ['draft', 'scheduled'],
      );
      // --json is JSON on stdout (docs/cli.md): the posts, or with -o what was written where.
      const viaFlag = await cli(['export', '--json'], cliEnv);
      assert.equal(viaFlag.code, 0, viaFlag.stderr);
      assert.deepEqual(JSON.parse(viaFlag.stdout), JSON.parse(json.stdout));
      const jsonFile = join(dir, 'export.json');
      const toFile = await cli(['export', '--json', '-o', jsonFile], cliEnv);
      assert.equal(toFile.code, 0, toFile.stderr);
      const written = readFileSync(jsonFile, 'utf8');
      assert.deepEqual(JSON.parse(toFile.stdout), { output: jsonFile, bytes: Buffer.byteLength(written) });
      assert.deepEqual(JSON.parse(written), JSON.parse(json.stdout));
      const wrong = await cli(['export', '--format', 'xml'], cliEnv);
      assert.equal(wrong.code, 2);
      const missing = await cli(['import', join(dir, 'nope.csv')], cliEnv);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /Cannot read/);
    });
  });
}
