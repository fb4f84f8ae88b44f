import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#server/config.ts';
import { type AppContext, type ContextOverrides, createContext } from '#server/context.ts';
import { openDatabase } from '#server/db/client.ts';
import { type Backend, createPostgresDatabase } from './databases.ts';
import { seedPgliteDataDir } from './pglite-template.ts';

export interface ServiceHarness {
  /** One context per simulated app instance (PGlite has only one: it is a single-process database). */
  contexts: AppContext[];
  ctx: AppContext;
  stop(): Promise<void>;
}

/**
 * Services wired to a real database without HTTP: PGlite in a temp directory, or a fresh
 * PostgreSQL database with `instances` separate pools, as separate app instances would have.
 */
export async function startServices(
  backend: Backend,
  env: Record<string, string>,
  instances = 1,
  /** E.g. test-only platform modules (`platforms`). */
  overrides: Omit<ContextOverrides, 'database'> = {},
): Promise<ServiceHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postwave-svc-'));
  const database = backend === 'postgres' ? await createPostgresDatabase() : undefined;
  if (!database) await seedPgliteDataDir(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    MIGRATIONS_DIR: join(import.meta.dirname, '..', '..', '..', 'drizzle'),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const contexts: AppContext[] = [];
  const count = database ? instances : 1;
  for (let i = 0; i < count; i++) {
    const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, poolSize: 10 });
    contexts.push(await createContext(config, { ...overrides, database: handle }));
  }
  return {
    contexts,
    ctx: contexts[0]!,
    async stop() {
      for (const c of contexts) await c.database.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
