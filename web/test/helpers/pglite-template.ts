import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../server/db/client.ts';

const migrationsDir = join(import.meta.dirname, '..', '..', '..', 'drizzle');

/** What the migrated database depends on: every migration's text, and PGlite's version. */
function templateKey(): string {
  const hash = createHash('sha256');
  const files = readdirSync(migrationsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(file.slice(migrationsDir.length)).update(readFileSync(file));
  return hash.update(pgliteVersion()).digest('hex').slice(0, 16);
}

/** The installed PGlite's version (its package.json is not among its exports: found from its entry). */
function pgliteVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Templates of other migrations (an older checkout's) untouched for a day: 40 MB each otherwise kept. */
function removeStaleTemplates(root: string, keep: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (path === keep) continue;
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

let template: Promise<string> | undefined;

/**
 * A migrated PGlite database directory, made once per migrations and shared by every test
 * process on the machine: creating a PGlite cluster costs about 3 s of CPU (its initdb), copying
 * one about 70 ms. Built beside its final name and renamed into place, so concurrent test files
 * never see half of one; the loser of a race throws its copy away.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const root = join(tmpdir(), 'postwave-test-pglite');
    const ready = join(root, templateKey());
    if (existsSync(ready)) return ready;
    const building = `${ready}.${process.pid}.${randomBytes(4).toString('hex')}`;
    mkdirSync(building, { recursive: true });
    const handle = await openDatabase({ databaseUrl: undefined, dataDir: building });
    try {
      await handle.migrate(migrationsDir);
    } finally {
      await handle.close();
    }
    try {
      renameSync(building, ready);
    } catch (error) {
      if (!existsSync(ready)) throw error;
      rmSync(building, { recursive: true, force: true });
    }
    removeStaleTemplates(root, ready);
    return ready;
  })();
  return template;
}

/**
 * Gives `dataDir` the migrated database the app would otherwise create at start (`dataDir/db`),
 * unless it already has one (an app restarted on the same data keeps it). The app still runs its
 * migrations at start: on a migrated database that finds nothing to do.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'db'))) return;
  cpSync(join(await migratedTemplate(), 'db'), join(dataDir, 'db'), { recursive: true });
}
