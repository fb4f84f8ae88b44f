import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ApiError, hintFor } from '../src/api.ts';
import { run } from '../src/cli.ts';
import type { Command } from '../src/command.ts';
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

/** A fake Scheduler for uploadFile: records requests; `presign` and `put` pick its answers. */
async function uploadServer(answers: { presign: number; put: number }) {
  const { createServer } = await import('node:http');
  const seen: { method: string; path: string; bytes: Buffer; auth: string | undefined }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '';
    seen.push({
      method: req.method ?? '',
      path,
      bytes: Buffer.concat(chunks),
      auth: req.headers.authorization,
    });
    const media = {
      id: 'm1',
      key: 'k.png',
      url: 'http://x/media/k.png',
      filename: 'k.png',
      contentType: 'image/png',
      size: 3,
      storage: 'local',
    };
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/api/v1/upload/presign') {
      if (answers.presign !== 201) return reply(answers.presign, { code: 'not_found', detail: 'nope' });
      const { port } = server.address() as { port: number };
      return reply(201, {
        uploadUrl: `http://127.0.0.1:${port}/media/k.png?signature=s`,
        method: 'PUT',
        headers: { 'Content-Type': 'image/png' },
        media,
      });
    }
    if (path.startsWith('/media/k.png')) {
      return answers.put === 200
        ? reply(200, { media })
        : reply(answers.put, { code: 'forbidden', detail: 'Bad signature' });
    }
    if (path === '/api/v1/upload') return reply(201, { media: { ...media, id: 'multipart' } });
    reply(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

test('uploadFile: presign and PUT the exact bytes; multipart only when the server has no presign', async () => {
  const { uploadFile } = await import('../src/upload.ts');
  const { Api } = await import('../src/api.ts');
  const { writeFileSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'pw-cli-up-'));
  const file = join(dir, 'k.png');
  writeFileSync(file, Buffer.from([1, 2, 3]));
  try {
    const direct = await uploadServer({ presign: 201, put: 200 });
    try {
      const media = await uploadFile(new Api({ server: direct.url, token: 'pw_t' }), file, undefined);
      assert.equal(media.id, 'm1');
      assert.deepEqual(
        direct.seen.map((r) => `${r.method} ${r.path.split('?')[0]}`),
        ['POST /api/v1/upload/presign', 'PUT /media/k.png'],
      );
      assert.deepEqual(direct.seen[1]!.bytes, Buffer.from([1, 2, 3]));
      assert.equal(direct.seen[1]!.auth, undefined, 'the bearer token is not sent to the upload URL');
    } finally {
      await direct.close();
    }

    const old = await uploadServer({ presign: 404, put: 200 });
    try {
      const media = await uploadFile(new Api({ server: old.url, token: 'pw_t' }), file, undefined);
      assert.equal(media.id, 'multipart');
      assert.deepEqual(
        old.seen.map((r) => `${r.method} ${r.path}`),
        ['POST /api/v1/upload/presign', 'POST /api/v1/upload'],
      );
    } finally {
      await old.close();
    }

    const refused = await uploadServer({ presign: 201, put: 403 });
    try {
      await assert.rejects(
        uploadFile(new Api({ server: refused.url, token: 'pw_t' }), file, undefined),
        (error: unknown) => error instanceof ApiError && error.status === 403,
      );
      assert.ok(!refused.seen.some((r) => r.path === '/api/v1/upload'), 'no silent second upload');
    } finally {
      await refused.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('import and export: help, completion and the file type', async () => {
  const { importContentType, exportPath } = await import('../src/transfer.ts');
  const { completionScript } = await import('../src/completion.ts');
  const { commands } = await import('../src/commands/index.ts');
  assert.equal(importContentType('posts.JSON', 'x'), 'application/json');
  assert.equal(importContentType('posts.csv', '[oops'), 'text/csv');
  assert.equal(importContentType('posts.txt', '  [{"message":"x"}]'), 'application/json');
  assert.equal(
    exportPath({ format: 'json', status: 'posted', from: '2026-01-01' }),
    '/api/v1/posts/export?format=json&status=posted&from=2026-01-01',
  );
  assert.match(completionScript('bash', commands)!, /import/);
  assert.match(completionScript('bash', commands)!, /--dry-run/);
  assert.match(completionScript('zsh', commands)!, /export\)/);
  let out = '';
  const io = {
    env: {},
    stdout: (t: string) => {
      out += t;
    },
    stderr: () => {},
    progress: undefined,
    readStdin: () => '',
  };
  assert.equal(await run(['import', '--help'], io), 0);
  assert.match(out, /--dry-run/);
  out = '';
  assert.equal(await run(['help', 'export'], io), 0);
  assert.match(out, /--format csv\|json/);
  out = '';
  assert.equal(await run(['--help'], io), 0);
  assert.match(out, /import <file>/);
});

test('help, dispatch and completion come from the one command list', async () => {
  const { commands } = await import('../src/commands/index.ts');
  const { completionScript } = await import('../src/completion.ts');
  const bash = completionScript('bash', commands)!;
  const zsh = completionScript('zsh', commands)!;
  let out = '';
  const io = {
    env: {},
    stdout: (t: string) => {
      out += t;
    },
    stderr: () => {},
    progress: undefined,
    readStdin: () => '',
  };
  assert.equal(await run(['--help'], io), 0);
  const overview = out;
  for (const [name, command] of Object.entries(commands) as [string, Command][]) {
    for (const [usage] of command.synopsis ?? []) assert.ok(overview.includes(`  ${usage} `), usage);
    if (command.help) {
      out = '';
      assert.equal(await run([name, '--help'], io), 0, name);
      assert.equal(out, command.help);
    }
    if (!command.summary) continue;
    assert.match(bash, new RegExp(`compgen -W "[^"]*\\b${name}\\b`), `bash offers ${name}`);
    assert.ok(zsh.includes(`'${name}:`), `zsh offers ${name}`);
    const flags = Object.keys(command.options).map((option) => `--${option}`);
    if (flags.length) assert.ok(bash.includes(`${name}) extra="${flags.join(' ')}"`), name);
    for (const flag of flags) {
      assert.ok(zsh.includes(flag), `zsh completes ${name} ${flag}`);
      if (command.help) assert.ok(command.help.includes(flag), `${name} --help explains ${flag}`);
    }
  }
});

test('both completion scripts are valid shell (zsh quoting is checked with bash -n, same rules)', async () => {
  const { execFileSync } = await import('node:child_process');
  const { writeFileSync } = await import('node:fs');
  const { commands } = await import('../src/commands/index.ts');
  const { completionScript } = await import('../src/completion.ts');
  const dir = mkdtempSync(join(tmpdir(), 'pw-cli-completion-'));
  try {
    for (const shell of ['bash', 'zsh']) {
      const file = join(dir, shell);
      writeFileSync(file, completionScript(shell, commands)!);
      execFileSync('bash', ['-n', file]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
