import { PlatformLimiter, PublisherRegistry, type Storage } from '@postwave/shared';
import { ConfigError, loadConfig, type SchedulerConfig } from './config.ts';
import { type Database, type DatabaseHandle, openDatabase } from './db/client.ts';
import { type AppLogger, createLogger } from './logger.ts';
import { CredentialCipher } from './security/encryption.ts';
import { createStorage } from './storage.ts';

/** Everything the services need, built once per process. */
export interface AppContext {
  config: SchedulerConfig;
  logger: AppLogger;
  database: DatabaseHandle;
  db: Database;
  cipher: CredentialCipher;
  storage: Storage;
  publishers: PublisherRegistry;
  /** Shared by every publish in the process, so per-platform concurrency limits hold globally. */
  limiter: PlatformLimiter;
}

export interface ContextOverrides {
  database?: DatabaseHandle;
  storage?: Storage;
  publishers?: PublisherRegistry;
  logger?: AppLogger;
}

/** Opens the database (migrating it) and wires the SDK pieces from a validated config. */
export async function createContext(
  config: SchedulerConfig,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
    }));
  await database.migrate(config.migrationsDir);
  return {
    config,
    logger,
    database,
    db: database.db,
    cipher: new CredentialCipher(config.credentialsKeys),
    storage: overrides.storage ?? createStorage(config),
    publishers: overrides.publishers ?? PublisherRegistry.fromEnv(config.env),
    limiter: new PlatformLimiter(),
  };
}

// Next.js may load this module more than once (route bundles, instrumentation); the process keeps one context.
const holder = globalThis as typeof globalThis & {
  __postwaveConfig?: SchedulerConfig;
  __postwaveContext?: Promise<AppContext>;
};

/** The process's configuration, read from the environment on first use. */
export function getConfig(): SchedulerConfig {
  holder.__postwaveConfig ??= loadConfig(process.env);
  return holder.__postwaveConfig;
}

export function getContext(): Promise<AppContext> {
  if (!holder.__postwaveContext) {
    const pending = createContext(getConfig());
    holder.__postwaveContext = pending;
    pending.catch((error: unknown) => {
      // A failed start (database down) is retried on the next request rather than cached forever.
      if (holder.__postwaveContext === pending) holder.__postwaveContext = undefined;
      if (!(error instanceof ConfigError))
        console.error('Scheduler failed to start:', (error as Error).message);
    });
  }
  return holder.__postwaveContext;
}
