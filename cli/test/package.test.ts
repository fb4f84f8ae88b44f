import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { buildCli, packCli } from '../scripts/build.ts';

const run = promisify(execFile);

/**
 * The CLI as users get it: built, packed with npm pack, installed with npm install -g into an
 * empty prefix (offline: the bundle has no dependencies), and run from that prefix's bin.
 */
describe('the installable CLI package', () => {
  let dir: string;
  let bin: string;
  let configDir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'postwave-cli-pkg-'));
    await buildCli();
    const tarball = packCli(join(dir, 'pack'));
    const prefix = join(dir, 'prefix');
    await run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' },
    });
    bin = join(prefix, 'bin', 'postwave');
    configDir = join(dir, 'config');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const postwave = (args: string[], env: Record<string, string> = {}) =>
    run(bin, args, { env: { PATH: process.env.PATH ?? '', POSTWAVE_CONFIG_DIR: configDir, ...env } });

  test('installs a postwave binary with nothing else', () => {
    assert.ok(existsSync(bin));
    const installed = join(dir, 'prefix', 'lib', 'node_modules', '@postwave', 'cli');
    assert.ok(existsSync(join(installed, 'postwave.mjs')));
    assert.ok(!existsSync(join(installed, 'node_modules')), 'no dependencies');
  });

  test('--help, --version and completion', async () => {
    const help = await postwave(['--help']);
    assert.match(help.stdout, /^postwave: publish and schedule posts/);
    assert.match(help.stdout, /completion bash\|zsh/);
    const version = await postwave(['--version']);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
    const bash = await postwave(['completion', 'bash']);
    assert.match(bash.stdout, /complete -F _postwave postwave/);
    // The script loads in bash and completes commands and posts subcommands.
    const completed = await run('bash', [
      '-c',
      `${bash.stdout}\nCOMP_WORDS=(postwave po); COMP_CWORD=1; _postwave; echo "\${COMPREPLY[*]}"\n` +
        `COMP_WORDS=(postwave posts l); COMP_CWORD=2; _postwave; echo "\${COMPREPLY[*]}"`,
    ]);
    assert.deepEqual(completed.stdout.trim().split('\n'), ['post posts', 'list']);
    const zsh = await postwave(['completion', 'zsh']);
    assert.match(zsh.stdout, /^#compdef postwave/);
    await assert.rejects(postwave(['completion', 'fish']), (error: { code?: number }) => error.code === 2);
  });

  test('logs in against a Scheduler through the loopback flow, then whoami uses the token', async () => {
    const scheduler = await fakeScheduler();
    try {
      const child = spawn(bin, ['login', '--server', scheduler.url, '--no-browser', '--device', 'ci box'], {
        env: { PATH: process.env.PATH ?? '', POSTWAVE_CONFIG_DIR: configDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      let approveUrl: string | undefined;
      for (let i = 0; i < 200 && !approveUrl; i++) {
        approveUrl = /(http:\/\/127\.0\.0\.1:\d+\/api\/cli\/authorize\?\S+)/.exec(stderr)?.[1];
        if (!approveUrl) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(approveUrl, `no approval URL in: ${stderr}`);
      // The "browser": the approval redirects to the CLI's loopback callback.
      const approved = await fetch(approveUrl, { redirect: 'follow' });
      assert.equal(approved.status, 200);
      assert.match(await approved.text(), /Postwave CLI connected/);
      assert.equal(await exited, 0, stderr);
      assert.match(stdout, /Logged in to http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(scheduler.devices.at(-1), 'ci box');

      const me = await postwave(['whoami', '--json']);
      const body = JSON.parse(me.stdout) as { user: { email: string } };
      assert.equal(body.user.email, 'cli@example.com');
      assert.equal(scheduler.bearers.at(-1), scheduler.token);
    } finally {
      await scheduler.close();
    }
  });
});

/** Just enough of the Scheduler's CLI authorization (PKCE S256, single-use code) and whoami. */
async function fakeScheduler() {
  const token = `pw_${randomBytes(16).toString('hex')}`;
  const codes = new Map<string, string>();
  const devices: string[] = [];
  const bearers: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && url.pathname === '/api/cli/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      if (redirect.hostname !== '127.0.0.1' || url.searchParams.get('code_challenge_method') !== 'S256')
        return reply(400, { code: 'invalid_request' });
      devices.push(url.searchParams.get('device_name') ?? '');
      const code = randomBytes(16).toString('hex');
      codes.set(code, url.searchParams.get('code_challenge') ?? '');
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/cli/authorize') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const { code, code_verifier } = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>;
      const challenge = codes.get(code ?? '');
      codes.delete(code ?? '');
      const expected = createHash('sha256')
        .update(code_verifier ?? '')
        .digest('base64url');
      if (!challenge || challenge !== expected) return reply(400, { code: 'invalid_grant' });
      return reply(200, { token, expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString() });
    }
    if (req.method === 'GET' && url.pathname === '/api/cli/whoami') {
      bearers.push((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      return reply(200, {
        user: { id: 'u1', email: 'cli@example.com', name: null },
        token: { id: 't1', kind: 'cli', name: 'ci box', expiresAt: null },
      });
    }
    reply(404, { code: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    devices,
    bearers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
