import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { json, postwave, tinyServer } from './helpers.ts';

/** What servers that are not Postwave answer to every request. */
const strangers = {
  'JSON of another shape': (res: import('node:http').ServerResponse) => json(res, 200, { hello: 1 }),
  'an HTML page': (res: import('node:http').ServerResponse) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Welcome</h1>'),
  'an error that is not a problem': (res: import('node:http').ServerResponse) =>
    json(res, 500, { error: { reason: 'boom' }, errors: 'not a list' }),
  'a proxy error page': (res: import('node:http').ServerResponse) =>
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>'),
  'an empty 404': (res: import('node:http').ServerResponse) => res.writeHead(404).end(),
};

describe('a server that is not Postwave: one clear line and exit 1, from every command', () => {
  let dir: string;
  let csv: string;
  let png: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pw-cli-stranger-'));
    csv = join(dir, 'posts.csv');
    writeFileSync(csv, 'message,accounts\nHello,a1\n');
    png = join(dir, 'p.png');
    writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const commands = () => [
    ['login', '--no-browser'],
    ['whoami'],
    ['accounts'],
    ['templates'],
    ['posts', 'list'],
    ['posts', 'show', 'p1'],
    ['posts', 'delete', 'p1'],
    ['post', 'Hello', '-a', 'a1'],
    ['post', 'Hello', '-a', 'a1', '--media', png],
    ['validate', 'Hello', '-a', 'a1'],
    ['queue', 'show', 'a1'],
    ['queue', 'set', 'a1', '--slot', 'daily@09:00'],
    ['import', csv, '--dry-run'],
    ['export'],
    ['export', '--format', 'json'],
    ['stats'],
    ['stats', 'p1'],
  ];

  for (const [kind, answer] of Object.entries(strangers)) {
    // The timeout: a CLI that trusted such a server would sit waiting for a browser login.
    test(kind, { timeout: 60_000 }, async () => {
      const server = await tinyServer((_req, res) => answer(res));
      try {
        for (const argv of commands()) {
          for (const args of [argv, [...argv, '--json']]) {
            const { code, stderr } = await postwave(args, server.url);
            const what = `postwave ${args.join(' ')}: ${stderr}`;
            assert.equal(code, 1, what);
            assert.match(
              stderr,
              /^Error: http:\/\/127\.0\.0\.1:\d+\/\S+ did not answer like a Postwave server \(HTTP \d{3}, [^\n]+\)\n$/,
              what,
            );
            assert.doesNotMatch(stderr, /Cannot read|undefined|is not iterable/, what);
          }
        }
      } finally {
        await server.close();
      }
    });
  }

  test('the line says what came instead: the status, the type or the first field that differs', async () => {
    const server = await tinyServer((req, res) =>
      req.url === '/api/v1/accounts'
        ? json(res, 200, { accounts: [{ id: 'a1', platform: 'x' }] })
        : res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'),
    );
    try {
      const accounts = await postwave(['accounts'], server.url);
      assert.equal(
        accounts.stderr,
        `Error: ${server.url}/api/v1/accounts did not answer like a Postwave server (HTTP 200, accounts.0.platformAccountId: expected string)\n`,
      );
      const whoami = await postwave(['whoami', '--json'], server.url);
      assert.match(whoami.stderr, /\(HTTP 200, text\/html instead of JSON\)\n$/);
      // With --json the error is JSON on standard output too, as for the server's own errors.
      assert.equal(JSON.parse(whoami.stdout).code, 'unexpected_answer');
    } finally {
      await server.close();
    }
  });

  test("Postwave's own problems still read as before, with their hints", async () => {
    const server = await tinyServer((_req, res) =>
      json(
        res,
        401,
        {
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          detail: 'Token expired',
          code: 'unauthorized',
        },
        'application/problem+json',
      ),
    );
    try {
      const { code, stderr } = await postwave(['accounts'], server.url);
      assert.equal(code, 1);
      assert.equal(
        stderr,
        'Error: Token expired\nYour token is missing, expired or revoked: run `postwave login`.\n',
      );
    } finally {
      await server.close();
    }
  });
});
