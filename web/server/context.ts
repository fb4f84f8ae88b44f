import {
  createSafeFetch,
  type FetchLike,
  type LimitStore,
  MemoryLimitStore,
  type OAuthConnector,
  PlatformLimiter,
  type PlatformModule,
  PublisherRegistry,
  platformModules,
  type Storage,
  setDefaultMaxReplyBytes,
} from '@postwave/shared';
import { ConfigError, loadConfig, type SchedulerConfig } from './config.ts';
import { type Database, type DatabaseHandle, openDatabase } from './db/client.ts';
import { DatabaseLimitStore } from './limits/store.ts';
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
  /** The platform modules this app serves, by id (the SDK registry's; tests may add their own). */
  platforms: ReadonlyMap<string, PlatformModule>;
  /** The OAuth connectors of the modules that have one, by platform id. */
  connectors: ReadonlyMap<string, OAuthConnector>;
  /** Shared by every publish in the process, so per-platform concurrency limits hold globally. */
  limiter: PlatformLimiter;
  /**
   * The SSRF-safe fetch (ALLOW_PRIVATE_HOSTS applied) for every URL a user chose: account hosts
   * (Mastodon instance, Bluesky service), media from a URL, OAuth client metadata documents.
   */
  userUrlFetch: FetchLike;
}

export interface ContextOverrides {
  database?: DatabaseHandle;
  storage?: Storage;
  publishers?: PublisherRegistry;
  /** Platform modules instead of the SDK registry's (publishers, connectors and manifests from them). */
  platforms?: readonly PlatformModule[];
  logger?: AppLogger;
}

/** The per-process resources: one database pool and one publish limiter, whichever bundle asks first. */
interface ProcessResources {
  logger: AppLogger;
  database: DatabaseHandle;
  limiter: PlatformLimiter;
}

async function openResources(
  config: SchedulerConfig,
  overrides: ContextOverrides,
): Promise<ProcessResources> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.databasePoolSize,
      preparedStatements: config.databasePreparedStatements,
    }));
  await database.migrate(config.migrationsDir);
  // On PostgreSQL the limits live in the database, so every instance shares one count per bot,
  // chat and platform; PGlite is one process's database, so this process's memory is the truth.
  const store: LimitStore =
    database.kind === 'postgres'
      ? new DatabaseLimitStore(database.db, { leaseMs: config.publishLimitsLeaseMs, logger })
      : new MemoryLimitStore();
  return {
    logger,
    database: {
      ...database,
      // Slots still held go back before the pool closes (a dead process's run out with their lease).
      close: async () => {
        await store.close?.();
        await database.close();
      },
    },
    limiter: new PlatformLimiter({
      platformLimits: config.publishConcurrency,
      credentialLimits: config.publishCredentialConcurrency,
      rateLimits: config.publishRates,
      rateMarginMs: config.publishRateMarginMs,
      store,
    }),
  };
}

function assemble(
  config: SchedulerConfig,
  resources: ProcessResources,
  overrides: ContextOverrides,
): AppContext {
  // Per bundle: each Next bundle has its own copy of the SDK module that holds the default.
  setDefaultMaxReplyBytes(config.maxReplyBytes);
  const modules = overrides.platforms ?? platformModules;
  return {
    config,
    userUrlFetch: createSafeFetch({ allowPrivateHosts: config.allowPrivateHosts }),
    ...resources,
    db: resources.database.db,
    cipher: new CredentialCipher(config.credentialsKeys),
    storage: overrides.storage ?? createStorage(config),
    publishers: overrides.publishers ?? PublisherRegistry.fromEnv(config.env, modules),
    platforms: new Map(modules.map((m) => [m.id, m])),
    connectors: new Map(
      modules.flatMap((m) => (m.createConnector ? [[m.id, m.createConnector(config.env)] as const] : [])),
    ),
  };
}

/** Opens the database (migrating it) and wires the SDK pieces from a validated config. */
export async function createContext(
  config: SchedulerConfig,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  return assemble(config, await openResources(config, overrides), overrides);
}

/*
 * Next.js gives each route bundle (and instrumentation) its own copy of the modules, so classes
 * such as PlatformError exist once per bundle and `instanceof` only holds within one. The process
 * shares the database and limiter through globalThis; each bundle builds its SDK objects (storage,
 * publishers) from its own module copy so errors they throw are recognised where they are caught.
 */
const holder = globalThis as typeof globalThis & {
  __postwaveConfig?: SchedulerConfig;
  __postwaveResources?: Promise<ProcessResources>;
};
let bundleContext: Promise<AppContext> | undefined;

/**
 * The process's configuration, read from the environment on first use. Never while `next build`
 * runs: reading it generates secrets under DATA_DIR, which a build must not leave behind (a page
 * that needs the configuration is rendered per request; app/layout.tsx makes every page so).
 */
export function getConfig(): SchedulerConfig {
  if (process.env.NEXT_PHASE === 'phase-production-build')
    throw new Error(
      'The configuration is read at request time, never during `next build`: render this page dynamically',
    );
  holder.__postwaveConfig ??= loadConfig(process.env);
  return holder.__postwaveConfig;
}

function processResources(): Promise<ProcessResources> {
  if (!holder.__postwaveResources) {
    const pending = openResources(getConfig(), {});
    holder.__postwaveResources = pending;
    pending.catch((error: unknown) => {
      // A failed start (database down) is retried on the next request rather than cached forever.
      if (holder.__postwaveResources === pending) holder.__postwaveResources = undefined;
      if (!(error instanceof ConfigError))
        console.error('Scheduler failed to start:', (error as Error).message);
    });
  }
  return holder.__postwaveResources;
}

export function getContext(): Promise<AppContext> {
  if (!bundleContext) {
    const pending = processResources().then((resources) => assemble(getConfig(), resources, {}));
    bundleContext = pending;
    pending.catch(() => {
      if (bundleContext === pending) bundleContext = undefined;
    });
  }
  return bundleContext;
}
