import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postwave, tinyServer } from './helpers.ts';

/** Usage errors: exit 2 with a message, and nothing asked of the server. */
const usageErrors = [
  ['--bogus'],
  ['post', '--bogus'],
  ['accounts', '--json=yes'],
  ['--server'],
  // Another command's option is not quietly ignored.
  ['accounts', '--slot', 'daily@09:00'],
  ['posts', 'list', '--draft'],
  ['stats', '--status', 'posted'],
  ['whoami', '--dry-run'],
  // Extra or missing arguments.
  ['accounts', 'extra'],
  ['templates', 'extra'],
  ['whoami', 'extra'],
  ['logout', 'extra'],
  ['login', 'extra'],
  ['version', 'extra'],
  ['help', 'frobnicate'],
  ['frobnicate'],
  [],
  ['posts', 'frobnicate'],
  ['posts', 'show'],
  ['posts', 'delete'],
  ['posts', 'list', 'extra'],
  ['queue', 'show'],
  ['queue', 'set'],
  ['stats', 'p1', 'p2'],
  ['import'],
  ['export', 'extra'],
  ['post', 'Hello'],
  ['validate'],
  ['completion', 'fish'],
  // Malformed values.
  ['posts', 'list', '--limit', 'ten'],
  ['posts', 'list', '--status', 'published'],
  ['export', '--status', 'published'],
  ['export', '--format', 'xml'],
  ['export', '--from', 'last week'],
  ['stats', '--from', '30/11/2026'],
  ['stats', '--to', 'today'],
  ['post', 'Hello', '-a', 'a1', '--at', 'tomorrow'],
  ['post', 'Hello', '-a', 'a1', '--repeat-every', 'often'],
  ['queue', 'set', 'a1', '--slot', 'someday@09:00'],
  ['--server', 'not a url', 'accounts'],
  ['--server', 'ftp://files.example', 'accounts'],
];

test('usage errors exit 2 from every command, before anything is sent', async () => {
  const server = await tinyServer((_req, res) => res.writeHead(500).end());
  try {
    for (const argv of usageErrors) {
      const { code, stderr } = await postwave(argv, server.url);
      assert.equal(code, 2, `postwave ${argv.join(' ')}: ${stderr}`);
      assert.ok(stderr.trim(), `postwave ${argv.join(' ')} says why`);
      assert.deepEqual(server.seen, [], `postwave ${argv.join(' ')} sent nothing`);
    }
  } finally {
    await server.close();
  }
});

test('a server or network failure, or a file that cannot be read, exits 1; success 0; help documents the codes', async () => {
  const down = await postwave(['accounts'], 'http://127.0.0.1:9');
  assert.equal(down.code, 1);
  assert.match(down.stderr, /Could not reach/);
  // Well-formed, but it cannot be done: a failure, like the server's refusals.
  for (const argv of [
    ['import', '/nonexistent/posts.csv'],
    ['post', 'Hello', '-a', 'a1', '--media', '/nonexistent/photo.png'],
  ]) {
    const missing = await postwave(argv, 'http://127.0.0.1:9');
    assert.equal(missing.code, 1, argv.join(' '));
    assert.match(missing.stderr, /^Error: Cannot read \/nonexistent\//);
  }
  const server = await tinyServer((req, res) =>
    req.url === '/api/v1/accounts'
      ? res.writeHead(200, { 'content-type': 'application/json' }).end('{"accounts":[]}')
      : res
          .writeHead(404, { 'content-type': 'application/problem+json' })
          .end('{"code":"not_found","detail":"No such post","title":"Not found","status":404,"type":"x"}'),
  );
  try {
    assert.equal((await postwave(['accounts'], server.url)).code, 0);
    assert.equal((await postwave(['posts', 'show', 'p1'], server.url)).code, 1);
  } finally {
    await server.close();
  }
  const help = await postwave(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Exit codes:\n {2}0 {2}done\n {2}1 {2}failed[\s\S]*\n {2}2 {2}usage error/);
});
