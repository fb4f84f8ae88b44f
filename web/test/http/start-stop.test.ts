import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { type FakeTelegram, keepAliveHeader, startFakeTelegram } from '@postwave/shared/testing';
import { webDir } from '../../scripts/next-build.ts';
import { freePort } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';
import { type Backend, backends, createPostgresDatabase, type TestDatabase } from '../helpers/databases.ts';
import { connectTelegram } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

/**
 * `npm start` (web/scripts/start.ts, which runs `next start`) stopped the ways operators stop it:
 * Ctrl-C in a terminal (SIGINT to the whole process group, npm forwarding its own copy), a SIGTERM
 * to the start process only, or a SIGKILL of it. A publish in flight is finished and answered, the
 * process exits 0, and no server is left behind.
 */
const repoDir = join(webDir, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Started {
  url: string;
  process: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
  telegram: FakeTelegram;
  cleanup(): Promise<void>;
}

/** Runs `npm start` or `node web/scripts/start.ts` in its own process group, as a terminal would. */
async function start(backend: Backend, via: 'npm' | 'node'): Promise<Started> {
  const telegram = await startFakeTelegram({
    bots: { [bots.main.token]: { username: bots.main.username } },
    chats: { '@news': { id: -1001, title: 'News', username: 'news' } },
  });
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'postwave-start-'));
  const database: TestDatabase | undefined =
    backend === 'postgres' ? await createPostgresDatabase() : undefined;
  const url = `http://127.0.0.1:${port}`;
  const nodeDir = dirname(process.execPath);
  const [command, args]: [string, string[]] =
    via === 'npm'
      ? ['npm', ['start', '--silent', '--', '--no-build']]
      : [process.execPath, ['web/scripts/start.ts', '--no-build']];
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    PATH: `${nodeDir}:${process.env.PATH}`,
    HOME: process.env.HOME,
    PORT: String(port),
    APP_URL: url,
    DATA_DIR: dataDir,
    DISPATCHER_ENABLED: 'false',
    LOG_LEVEL: 'info',
    TELEGRAM_API_URL: telegram.url,
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const child: ChildProcess = spawn(command, args, {
    cwd: repoDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }
    for (const pid of serverPids(child.pid!)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    await telegram.close();
    await database?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await cleanup();
      throw new Error(`npm start exited early:\n${output}`);
    }
    const answer = await fetch(`${url}/api/v1/accounts`).catch(() => undefined);
    if (answer?.status === 401) break;
    if (Date.now() > deadline) {
      await cleanup();
      throw new Error(`npm start did not come up:\n${output}`);
    }
    await sleep(250);
  }
  return { url, process: child, exited, output: () => output, telegram, cleanup };
}

/** The processes below `pid` (npm → sh → start.ts → next start), from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {}
  }
  const found: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      visit(c);
    }
  };
  visit(pid);
  return found;
}

/** The `next start` server process(es) started under `pid` (Next renames itself `next-server`). */
function serverPids(pid: number): number[] {
  return descendants(pid).filter((p) => {
    try {
      return /next\u0000start|next-server/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** Starts a publish-now that the fake Telegram answers slowly, and waits until it is in flight. */
async function publishInFlight(app: Started, message: string) {
  const { api } = await userWithToken(app.url);
  const news = await connectTelegram(api);
  app.telegram.answerSlowly(3_000, { method: 'sendMessage' });
  const response = api.json('/api/v1/posts', { json: { message, accountIds: [news], postingMode: 'now' } });
  const deadline = Date.now() + 20_000;
  while (!app.telegram.sent.some((m) => m.text === message)) {
    if (Date.now() > deadline) throw new Error('the publish did not reach Telegram');
    await sleep(50);
  }
  return { response };
}

/** Waits until the process is gone (a server left running would be an orphan). */
async function gone(pid: number, what: string) {
  const deadline = Date.now() + 15_000;
  while (alive(pid)) {
    assert.ok(Date.now() < deadline, `${what} is still running`);
    await sleep(100);
  }
}

for (const backend of backends()) {
  describe(`npm start stops cleanly (${backend})`, () => {
    test('Ctrl-C (SIGINT to the process group, npm forwarding it too): the publish is answered, exit 0', async () => {
      const app = await start(backend, 'npm');
      try {
        const [server] = serverPids(app.process.pid!);
        assert.ok(server, 'the server runs under npm start');
        // Idle connections outlive a proxy's 60 s (docs/operations.md): the server says 65.
        assert.equal(await keepAliveHeader(`${app.url}/api/v1/accounts`), 'timeout=65');
        const { response } = await publishInFlight(app, 'ctrl-c during publish');
        process.kill(-app.process.pid!, 'SIGINT');
        const answer = await response;
        assert.equal(answer.status, 201, app.output());
        assert.equal(answer.body.status, 'posted');
        assert.equal(await app.exited, 0, app.output());
        await gone(server, 'the server');
        assert.equal(app.telegram.sent.filter((m) => m.text === 'ctrl-c during publish').length, 1);
        assert.doesNotMatch(app.output(), /second stop/);
      } finally {
        await app.cleanup();
      }
    });

    test('SIGTERM to the start process only: the publish is answered, exit 0', async () => {
      const app = await start(backend, 'node');
      try {
        const [server] = serverPids(app.process.pid!);
        assert.ok(server, 'the server runs under the start process');
        const { response } = await publishInFlight(app, 'sigterm during publish');
        app.process.kill('SIGTERM');
        const answer = await response;
        assert.equal(answer.status, 201, app.output());
        assert.equal(answer.body.status, 'posted');
        assert.equal(await app.exited, 0, app.output());
        await gone(server, 'the server');
      } finally {
        await app.cleanup();
      }
    });

    test('SIGKILL of the start process: its server finishes the publish and exits, no orphan', async () => {
      const app = await start(backend, 'node');
      try {
        const [server] = serverPids(app.process.pid!);
        assert.ok(server, 'the server runs under the start process');
        const { response } = await publishInFlight(app, 'parent killed during publish');
        app.process.kill('SIGKILL');
        const answer = await response;
        assert.equal(answer.status, 201, app.output());
        assert.equal(answer.body.status, 'posted');
        await gone(server, 'the server whose parent was killed');
      } finally {
        await app.cleanup();
      }
    });
  });
}
