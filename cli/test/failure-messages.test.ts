import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { json, tinyServer } from './helpers.ts';

/*
 * What the real `postwave` binary says when it cannot do a command (docs/cli.md, Exit codes):
 * the reason in one line on stderr (a usage error may add where to read more), never a stack
 * trace; with --json, a failure that is not a usage error is also one JSON object on stdout.
 */
const cliMain = resolve(import.meta.dirname, '..', 'src', 'main.ts');
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-cli-failures-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function postwave(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [cliMain, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, POSTWAVE_CONFIG_DIR: join(dir, 'none'), ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without blocking this process (for a server answering from it). */
function postwaveAsync(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [cliMain, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, POSTWAVE_CONFIG_DIR: join(dir, 'none'), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((r) =>
    child.on('close', (code) => r({ code, stdout, stderr })),
  );
}

function noStack(stderr: string) {
  assert.doesNotMatch(stderr, /\n\s+at |node:internal|\.ts:\d+/);
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('an unexpected argument is named, not answered with the bare usage text', () => {
  const env = { POSTWAVE_URL: 'http://127.0.0.1:1', POSTWAVE_TOKEN: 'pw_x' };
  for (const [argv, extra] of [
    [['accounts', 'extra'], 'extra'],
    [['whoami', 'extra'], 'extra'],
    [['templates', 'extra'], 'extra'],
    [['logout', 'extra'], 'extra'],
    [['stats', 'p1', 'p2'], 'p2'],
    [['posts', 'show', 'p1', 'p2'], 'p2'],
    [['posts', 'list', 'p1'], 'p1'],
    [['queue', 'show', 'a1', 'a2'], 'a2'],
    [['export', 'extra'], 'extra'],
    [['import', 'a.csv', 'b.csv'], 'b.csv'],
  ] as const) {
    const { code, stdout, stderr } = postwave([...argv], env);
    const name = `postwave ${argv.join(' ')}`;
    assert.equal(code, 2, name);
    assert.equal(stdout, '', name);
    const [first, ...rest] = stderr.trimEnd().split('\n');
    assert.equal(first, `Unexpected argument "${extra}".`, name);
    assert.deepEqual(rest, [`Run postwave ${argv[0]} --help for usage.`], name);
  }
});

test('a config file that is not a postwave config is named and explained (exit 1)', () => {
  const configDir = join(dir, 'config');
  mkdirSync(configDir, { recursive: true });
  const path = join(configDir, 'config.json');
  for (const content of [
    '[1, 2]',
    '"text"',
    '{"server": 42, "token": "pw_x"}',
    '{"server": "https://p.example", "token": {"a": 1}}',
  ]) {
    writeFileSync(path, content);
    const { code, stdout, stderr } = postwave(['accounts'], { POSTWAVE_CONFIG_DIR: configDir });
    assert.equal(code, 1, content);
    assert.equal(stdout, '');
    assert.equal(
      stderr,
      `Error: ${path} is not a postwave config: fix or delete it, then run postwave login\n`,
      content,
    );
  }
  rmSync(path);
  mkdirSync(path);
  const unreadable = postwave(['accounts'], { POSTWAVE_CONFIG_DIR: configDir });
  assert.equal(unreadable.code, 1);
  assert.match(unreadable.stderr, new RegExp(`^Error: Cannot read ${path} \\(EISDIR\\)`));
  assert.equal(unreadable.stderr.trimEnd().split('\n').length, 1);
});

test('a server that is down: one line on stderr, and with --json a JSON object on stdout', async () => {
  const server = `http://127.0.0.1:${await closedPort()}`;
  const env = { POSTWAVE_URL: server, POSTWAVE_TOKEN: 'pw_x' };
  const plain = postwave(['accounts'], env);
  assert.equal(plain.code, 1);
  assert.equal(plain.stdout, '');
  assert.equal(
    plain.stderr,
    `Error: Could not reach ${server} (ECONNREFUSED). Check the URL (--server or POSTWAVE_URL) and your connection.\n`,
  );
  for (const argv of [['accounts'], ['stats'], ['posts', 'show', 'p1'], ['whoami']]) {
    const json = postwave([...argv, '--json'], env);
    assert.equal(json.code, 1, argv.join(' '));
    noStack(json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), {
      code: 'unreachable',
      detail: `Could not reach ${server} (ECONNREFUSED). Check the URL (--server or POSTWAVE_URL) and your connection.`,
    });
  }
});

test('a --server of another scheme says which ones work', () => {
  const { code, stderr } = postwave(['accounts', '--server', 'ftp://files.example']);
  assert.equal(code, 2);
  assert.equal(stderr, 'The server URL must start with https:// or http:// (got ftp:)\n');
});

test('stats: --from and --to with a post id, or an empty post id, are usage errors, not ignored', () => {
  const env = { POSTWAVE_URL: 'http://127.0.0.1:1', POSTWAVE_TOKEN: 'pw_x' };
  for (const [argv, message] of [
    [
      ['stats', 'p1', '--from', '2026-11-01'],
      '--from and --to choose the days of the summary; a post’s figures take neither',
    ],
    [
      ['stats', 'p1', '--to', '2026-11-30'],
      '--from and --to choose the days of the summary; a post’s figures take neither',
    ],
    [['stats', ''], 'The post id is empty: postwave stats <post id>, or postwave stats for the summary'],
  ] as const) {
    const { code, stdout, stderr } = postwave([...argv], env);
    assert.equal(code, 2, argv.join(' '));
    assert.equal(stdout, '');
    assert.equal(stderr, `${message}\n`, argv.join(' '));
  }
});

test('a subcommand’s options given to its sibling are usage errors, not ignored', () => {
  const env = { POSTWAVE_URL: 'http://127.0.0.1:1', POSTWAVE_TOKEN: 'pw_x' };
  for (const [argv, message] of [
    [['posts', 'show', 'p1', '--limit', '5'], 'postwave posts show takes no --limit (only posts list does).'],
    [
      ['posts', 'delete', 'p1', '--status', 'draft'],
      'postwave posts delete takes no --status (only posts list does).',
    ],
    [
      ['posts', 'show', 'p1', '--cursor', 'c'],
      'postwave posts show takes no --cursor (only posts list does).',
    ],
    [
      ['queue', 'show', 'a1', '--slot', 'mon@09:00'],
      'postwave queue show takes no --slot (only queue set does).',
    ],
    [
      ['queue', 'show', 'a1', '--timezone', 'UTC'],
      'postwave queue show takes no --timezone (only queue set does).',
    ],
  ] as const) {
    const { code, stdout, stderr } = postwave([...argv], env);
    assert.equal(code, 2, argv.join(' '));
    assert.equal(stdout, '');
    assert.equal(stderr, `${message}\nRun postwave ${argv[0]} --help for usage.\n`, argv.join(' '));
  }
});

test('--json means JSON on stdout for every command: version, export; a usage error where it cannot', () => {
  for (const argv of [
    ['version', '--json'],
    ['--version', '--json'],
  ]) {
    const { code, stdout } = postwave(argv);
    assert.equal(code, 0);
    assert.match(JSON.parse(stdout).version, /^\d+\.\d+\.\d+/);
  }
  const completion = postwave(['completion', 'bash', '--json']);
  assert.equal(completion.code, 2);
  assert.equal(completion.stdout, '');
  assert.equal(completion.stderr, 'postwave completion prints a shell script: it takes no --json\n');
  const env = { POSTWAVE_URL: 'http://127.0.0.1:1', POSTWAVE_TOKEN: 'pw_x' };
  const csv = postwave(['export', '--format', 'csv', '--json'], env);
  assert.equal(csv.code, 2);
  assert.equal(csv.stderr, '--json exports JSON: leave out --format csv\n');
});

test('a 403 for a role says which role to ask for; another 403 no longer blames the token', async () => {
  const problems: Record<string, unknown>[] = [
    {
      type: 'x',
      title: 'Forbidden',
      status: 403,
      code: 'forbidden',
      detail: 'This needs the editor role or higher in this workspace',
      requiredRole: 'editor',
    },
    {
      type: 'x',
      title: 'Authors do not approve their own posts',
      status: 403,
      code: 'self_approval',
      detail: 'You wrote this post: another member (or a client) approves it',
    },
  ];
  const server = await tinyServer((_req, res) =>
    json(res, 403, problems.shift(), 'application/problem+json'),
  );
  try {
    const env = { POSTWAVE_URL: server.url, POSTWAVE_TOKEN: 'pw_x' };
    const role = await postwaveAsync(['posts', 'delete', 'p1'], env);
    assert.equal(role.code, 1);
    assert.equal(
      role.stderr,
      'Error: This needs the editor role or higher in this workspace\nAsk an owner or admin of the workspace for the editor role (or higher).\n',
    );
    const other = await postwaveAsync(['posts', 'delete', 'p1'], env);
    assert.equal(other.code, 1);
    assert.equal(other.stderr, 'Error: You wrote this post: another member (or a client) approves it\n');
  } finally {
    await server.close();
  }
});
