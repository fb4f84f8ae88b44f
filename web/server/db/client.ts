import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { installParameterFreeQueryErrors } from './errors.ts';
import { prepareStatementsOn } from './prepared.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The common surface of the node-postgres and PGlite drizzle databases. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  migrate(migrationsDir: string): Promise<void>;
  /**
   * Calls `onPayload` for every NOTIFY on `channel` (from any instance on PostgreSQL; from this
   * process's own PGlite). Resolves to a function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** Per-batch statements as named prepared statements (`executePrepared`); default true. */
  preparedStatements?: boolean;
}

// Query errors must never carry bound parameters into logs (see errors.ts).
installParameterFreeQueryErrors();

/** Arbitrary but fixed: every instance takes this advisory lock around migrations. */
const migrationLockKey = 7_402_231_117;

/** PostgreSQL through a `pg` pool when a URL is given; otherwise embedded PGlite under `dataDir/db`. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.preparedStatements ?? true)
    : openPglite(join(options.dataDir, 'db'));
}

async function openPostgres(url: string, max: number, preparedStatements: boolean): Promise<DatabaseHandle> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that errors (e.g. the server restarts) must not crash the process.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  if (preparedStatements) prepareStatementsOn(db);
  return handle(
    'postgres',
    db,
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
    (channel, onPayload) => listenPostgres(pg, url, channel, onPayload),
  );
}

/**
 * LISTEN needs a connection of its own that stays open (a pooled one would be handed to other
 * queries). A dropped connection is re-established with backoff; notifications sent while it was
 * down are lost, which subscribers tolerate (they re-read the resource on the next change).
 */
async function listenPostgres(
  pg: typeof import('pg').default,
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: import('pg').Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (attempt: number): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    next.on('error', () => {
      next.end().catch(() => {});
      if (!stopped && client === next) schedule(0);
    });
    try {
      await next.connect();
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      client = next;
      if (stopped) await next.end();
    } catch {
      await next.end().catch(() => {});
      if (attempt === 0) throw new Error(`could not LISTEN on ${channel}`);
      schedule(attempt);
    }
  };
  const schedule = (attempt: number) => {
    retry = setTimeout(() => void connect(attempt + 1).catch(() => {}), Math.min(30_000, 500 * 2 ** attempt));
    retry.unref();
  };
  await connect(0);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
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
    (channel, onPayload) => client.listen(channel, onPayload),
  );
}

function handle(
  kind: DatabaseHandle['kind'],
  db: unknown,
  close: () => Promise<void>,
  migrate: (migrationsDir: string) => Promise<void>,
  listen: DatabaseHandle['listen'],
): DatabaseHandle {
  return { db: db as Database, kind, migrate, listen, close };
}
