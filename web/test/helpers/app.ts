import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextStartArgs, webDir } from '../../scripts/next-build.ts';
import { type DatabaseHandle, openDatabase } from '../../server/db/client.ts';
import { type Backend, createPostgresDatabase, type TestDatabase } from './databases.ts';
import { seedPgliteDataDir } from './pglite-template.ts';

export const dispatchSecret = 'test-dispatch-secret-0123456789';

export interface RunningApp {
  url: string;
  dataDir: string;
  databaseUrl: string | undefined;
  output: () => string;
  /** The `next start` process (tests that signal it). */
  child: ChildProcess;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts the production build (`next start`) on a free port with its own data directory and,
 * for PostgreSQL, its own database. The in-process dispatcher is off: tests call the endpoint.
 */
export async function startApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: {
    /** Runs on the migrated database before the app starts (e.g. to install a test trigger). */
    prepareDatabase?: (db: DatabaseHandle['db']) => Promise<void>;
    /**
     * The host name of APP_URL (the server listens on 127.0.0.1 either way). Next.js spells
     * loopback IPs as `localhost` in route handlers' URLs, so OAuth sign-in round trips need
     * `localhost` to build the same redirect URI everywhere.
     */
    host?: '127.0.0.1' | 'localhost';
  } = {},
): Promise<RunningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postwave-web-'));
  let database: TestDatabase | undefined;
  if (backend === 'postgres') database = await createPostgresDatabase();
  else await seedPgliteDataDir(env.DATA_DIR ?? dataDir);
  if (options.prepareDatabase) {
    const handle = await openDatabase({ databaseUrl: database?.url, dataDir: env.DATA_DIR ?? dataDir });
    try {
      await handle.migrate(join(webDir, '..', 'drizzle'));
      await options.prepareDatabase(handle.db);
    } finally {
      await handle.close();
    }
  }
  const remove = async () => {
    await database?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  // A free port can be taken before the app binds it (another test's server, or the local end of
  // an outgoing connection: both draw on the same range): the app then exits with EADDRINUSE, and
  // is started again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(await freePort(), { dataDir, database, env, host: options.host, remove });
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) {
        await remove();
        throw error;
      }
    }
  }
}

class PortTaken extends Error {}

/** Starts `next start` on `port` and waits until it answers; `remove` runs once it is stopped. */
async function launch(
  port: number,
  {
    dataDir,
    database,
    env,
    host,
    remove,
  }: {
    dataDir: string;
    database: TestDatabase | undefined;
    env: Record<string, string>;
    host: '127.0.0.1' | 'localhost' | undefined;
    remove: () => Promise<void>;
  },
): Promise<RunningApp> {
  const url = `http://${host ?? '127.0.0.1'}:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(port),
    APP_URL: url,
    DATA_DIR: dataDir,
    DISPATCH_SECRET: dispatchSecret,
    DISPATCHER_ENABLED: 'false',
    // Collection would call the fakes in the background; tests call its cron endpoint instead.
    ANALYTICS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    MIGRATIONS_DIR: join(webDir, '..', 'drizzle'),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    // The production arguments: among them a keep-alive longer than the tests' idle gaps, which
    // Playwright's request context needs (it reuses sockets the server closed after 5 s: ECONNRESET).
    nextStartArgs(port, '127.0.0.1'),
    {
      cwd: webDir,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const kill = async () => {
    // Not yet exited: a process a test killed by a signal has no exit code, but a signal code.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  };
  const stop = async () => {
    await kill();
    await remove();
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      if (output.includes('EADDRINUSE')) throw new PortTaken(`Port ${port} was taken:\n${output}`);
      throw new Error(`The app exited early:\n${output}`);
    }
    // Next says "Ready" once it listens: until then, whoever answers on the port is not this app.
    if (/\bReady in\b/.test(output))
      try {
        // Any answer from an API route means the context (database, migrations) is up.
        const response = await fetch(`${url}/api/v1/accounts`);
        if (response.status === 401) break;
      } catch {}
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`The app did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, databaseUrl: database?.url, output: () => output, child, exited, stop };
}
