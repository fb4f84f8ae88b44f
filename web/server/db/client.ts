import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { installParameterFreeQueryErrors } from './errors.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The common surface of the node-postgres and PGlite drizzle databases. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  migrate(migrationsDir: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize?: number;
}

// Query errors must never carry bound parameters into logs (see errors.ts).
installParameterFreeQueryErrors();

/** Arbitrary but fixed: every instance takes this advisory lock around migrations. */
const migrationLockKey = 7_402_231_117;

/** PostgreSQL through a `pg` pool when a URL is given; otherwise embedded PGlite under `dataDir/db`. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(join(options.dataDir, 'db'));
}

async function openPostgres(url: string, max: number): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that errors (e.g. the server restarts) must not crash the process.
  pool.on('error', () => {});
  return handle(
    'postgres',
    drizzle(pool, { schema }),
    () => pool.end(),
    async (migrationsDir) => {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
        try {
          await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsDir });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
        }
      } finally {
        client.release();
      }
    },
  );
}

async function openPglite(directory: string): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const memory = directory.startsWith('memory:');
  if (!memory) mkdirSync(directory, { recursive: true });
  const client = memory ? new PGlite() : new PGlite(directory);
  await client.waitReady;
  // PGlite is one process's private database: there is no one else to lock out of migrations.
  return handle(
    'pglite',
    drizzle(client, { schema }),
    () => client.close(),
    async (migrationsDir) => {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsDir });
    },
  );
}

function handle(
  kind: DatabaseHandle['kind'],
  db: unknown,
  close: () => Promise<void>,
  migrate: (migrationsDir: string) => Promise<void>,
): DatabaseHandle {
  return { db: db as Database, kind, migrate, close };
}
