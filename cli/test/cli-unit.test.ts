import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ApiError, hintFor } from '../src/api.ts';
import { run } from '../src/cli.ts';
import { configDir, normalizeServer, readConfig, resolveServer, writeConfig } from '../src/config.ts';
import { pkcePair } from '../src/login.ts';
import { contentTypeFor, formatBytes, renderBar } from '../src/upload.ts';

test('config directory: override, XDG, APPDATA, home', () => {
  assert.equal(configDir({ POSTWAVE_CONFIG_DIR: '/x' }), '/x');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/xdg' }), '/xdg/postwave');
  assert.equal(configDir({ APPDATA: 'C:/a' }, 'win32'), join('C:/a', 'postwave'));
  assert.equal(configDir({ HOME: '/home/u' }, 'linux'), '/home/u/.config/postwave');
});

test('the token file is written 0600 and read back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
  try {
    const env = { POSTWAVE_CONFIG_DIR: join(dir, 'nested') };
    writeConfig(env, { server: 'https://p.example', token: 'pw_x' });
    assert.equal(statSync(join(dir, 'nested', 'config.json')).mode & 0o777, 0o600);
    assert.deepEqual(readConfig(env), { server: 'https://p.example', token: 'pw_x' });
    assert.match(readFileSync(join(dir, 'nested', 'config.json'), 'utf8'), /pw_x/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('server resolution: flag, then POSTWAVE_URL, then stored; bad URLs explained', () => {
  assert.equal(
    resolveServer(
      'https://a.example/',
      { POSTWAVE_URL: 'https://b.example' },
      { server: 'https://c.example' },
    ),
    'https://a.example',
  );
  assert.equal(
    resolveServer(undefined, { POSTWAVE_URL: 'https://b.example' }, { server: 'https://c.example' }),
    'https://b.example',
  );
  assert.equal(resolveServer(undefined, {}, { server: 'https://c.example' }), 'https://c.example');
  assert.equal(resolveServer(undefined, {}, {}), undefined);
  assert.throws(() => normalizeServer('not a url'), /--server/);
  assert.throws(() => normalizeServer('ftp://x.example'), /https/);
});

test('PKCE pair is S256 of a 43-character verifier', () => {
  const { verifier, challenge } = pkcePair();
  assert.match(verifier, /^[A-Za-z0-9_-]{43}$/);
  assert.match(challenge, /^[A-Za-z0-9_-]{43}$/);
});

test('progress bar and sizes', () => {
  assert.equal(renderBar(50, 100, 'f.png', 10), '[#####.....]  50%  50 B / 100 B  f.png');
  assert.equal(formatBytes(1536), '1.5 KB');
  assert.equal(contentTypeFor('A.JPG'), 'image/jpeg');
  assert.equal(contentTypeFor('notes.txt'), undefined);
});

test('errors carry a hint that says what to do', () => {
  assert.match(hintFor(new ApiError(401, 'unauthorized', 'x', {}))!, /postwave login/);
});

test('commands without a server or login explain how to fix it', async () => {
  let err = '';
  const io = {
    env: { POSTWAVE_CONFIG_DIR: '/nonexistent-pw' },
    stdout: () => {},
    stderr: (t: string) => {
      err += t;
    },
    progress: undefined,
    readStdin: () => '',
  };
  assert.equal(await run(['accounts'], io), 2);
  assert.match(err, /--server/);
  err = '';
  assert.equal(await run(['accounts'], { ...io, env: { ...io.env, POSTWAVE_URL: 'https://p.example' } }), 2);
  assert.match(err, /postwave login --server https:\/\/p.example/);
  err = '';
  assert.equal(await run(['post', 'hi', '--at', 'tomorrow', '--server', 'https://p.example'], io), 2);
  assert.match(err, /ISO 8601/);
});
