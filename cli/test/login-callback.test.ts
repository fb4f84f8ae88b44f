import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { json, tinyServer } from './helpers.ts';

/*
 * The page the browser lands on at the CLI's loopback callback, and what the CLI then says: an
 * error the server sent back (not a refusal by the person) is named as such, not "You denied access".
 */
const cliMain = resolve(import.meta.dirname, '..', 'src', 'main.ts');

async function loginAnswered(query: (state: string) => Record<string, string>) {
  // A Postwave-like server: the whoami check answers the 401 problem a logged-out CLI expects.
  const server = await tinyServer((_req, res) =>
    json(
      res,
      401,
      { type: 'x', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'No token' },
      'application/problem+json',
    ),
  );
  const dir = mkdtempSync(join(tmpdir(), 'pw-cli-login-'));
  const child = spawn(process.execPath, [cliMain, 'login', '--server', server.url, '--no-browser'], {
    env: { PATH: process.env.PATH, HOME: dir, POSTWAVE_CONFIG_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number>((r) => child.on('exit', (code) => r(code ?? -1)));
  try {
    const deadline = Date.now() + 15_000;
    let url: URL | undefined;
    while (!url) {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/api\/cli\/authorize\?\S+)/.exec(stderr);
      if (match) url = new URL(match[1]!);
      else if (Date.now() > deadline) throw new Error(`no authorize URL in: ${stderr}`);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const callback = new URL(url.searchParams.get('redirect_uri')!);
    for (const [k, v] of Object.entries(query(url.searchParams.get('state')!)))
      callback.searchParams.set(k, v);
    const page = await fetch(callback);
    const code = await exited;
    return { page: await page.text(), code, stdout, stderr };
  } finally {
    child.kill();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('access_denied: the page and the CLI say it was denied (exit 1)', async () => {
  const { page, code, stderr } = await loginAnswered((state) => ({ state, error: 'access_denied' }));
  assert.match(page, /You denied access/);
  assert.equal(code, 1);
  assert.match(stderr, /\nError: Access was denied in the browser\n$/);
});

test('another error from the server: named on the page and by the CLI, not called a denial', async () => {
  const { page, code, stderr } = await loginAnswered((state) => ({
    state,
    error: 'server_error',
    error_description: 'Something went wrong on our side',
  }));
  assert.doesNotMatch(page, /denied/);
  assert.match(page, /The server could not connect this device \(server_error\)/);
  assert.equal(code, 1);
  assert.match(
    stderr,
    /\nError: Authorization failed: server_error \(Something went wrong on our side\): run postwave login again\n$/,
  );
  // The error is quoted on the page as text, never as markup.
  const markup = await loginAnswered((state) => ({ state, error: '<img src=x onerror=alert(1)>' }));
  assert.doesNotMatch(markup.page, /<img/);
  assert.match(markup.page, /&#60;img src=x onerror=alert\(1\)&#62;/);
  // A callback without a code or an error is no approval either.
  const bare = await loginAnswered((state) => ({ state }));
  assert.doesNotMatch(bare.page, /denied/);
  assert.match(
    bare.stderr,
    /\nError: Authorization failed: no code in the answer: run postwave login again\n$/,
  );
});
