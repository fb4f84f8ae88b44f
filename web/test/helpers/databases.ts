import pg from 'pg';

export type Backend = 'pglite' | 'postgres';

/** Every test suite runs on embedded PGlite, and on PostgreSQL too when DATABASE_URL is set. */
export function backends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database next to the one DATABASE_URL names, so concurrent runs never collide. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `postwave_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
