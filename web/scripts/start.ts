/**
 * Production start: build when needed, migrate, then serve with `next start`.
 * Everything comes from the environment (see docs/scheduler.md); nothing else is required.
 */
import { spawn } from 'node:child_process';
import { ConfigError, loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { buildIfStale, nextStartArgs, webDir } from './next-build.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Container images build at image build time and start with --no-build (no dev dependencies there).
if (!process.argv.includes('--no-build')) await buildIfStale();

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 1,
});
try {
  await database.migrate(config.migrationsDir);
} finally {
  await database.close();
}

// The server reads the same variables; DATA_DIR and the migrations folder are passed resolved,
// because `next start` runs with web/ as its working directory. The IPC channel is how the server
// notices this process going away (even by SIGKILL) and stops instead of living on as an orphan.
const child = spawn(process.execPath, nextStartArgs(config.port), {
  cwd: webDir,
  env: {
    ...process.env,
    DATA_DIR: config.dataDir,
    MIGRATIONS_DIR: config.migrationsDir,
    PORT: String(config.port),
    NEXT_TELEMETRY_DISABLED: '1',
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
// Every stop is passed on: the server takes signals a moment apart as one stop (Ctrl-C reaches
// it from the terminal too, and npm forwards its own copy), drains as docs/operations.md says,
// and exits at once on a later one (web/server/lifecycle/shutdown.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
