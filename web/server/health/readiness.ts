import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ReadinessReport, runReadiness, type Storage } from '@postwave/shared';
import { loopProblems } from '../background/loop-liveness.ts';
import { type AppContext, getConfig, getContext } from '../context.ts';
import { isShuttingDown } from '../lifecycle/shutdown.ts';
import { createStorage } from '../storage.ts';
import { newestAppliedMigration, pingDatabase } from './repository.ts';

const holder = globalThis as typeof globalThis & { __postwaveReadyStorage?: Storage };

/**
 * The Scheduler can work when its database answers, every migration in the build is applied,
 * media storage answers, it is not shutting down, and the background loops running here
 * (`dispatcher`, `webhooks`) complete their passes. Each failing check is named.
 */
export async function schedulerReadiness(): Promise<ReadinessReport> {
  let ctx: AppContext | undefined;
  return runReadiness([
    [
      'database',
      async () => {
        ctx = await getContext();
        await pingDatabase(ctx);
      },
    ],
    [
      'migrations',
      async () => {
        if (!ctx) throw new Error('not checked: the database is unavailable');
        await assertMigrated(ctx);
      },
    ],
    [
      'storage',
      async () => {
        // Built from configuration alone, so storage is checked even when the database is down.
        holder.__postwaveReadyStorage ??= createStorage(getConfig());
        await holder.__postwaveReadyStorage.check();
      },
    ],
    [
      'shutdown',
      async () => {
        if (isShuttingDown()) throw new Error('shutting down');
      },
    ],
    ...[...loopProblems()].map(
      ([check, problem]) =>
        [
          check,
          async () => {
            if (problem) throw new Error(problem);
          },
        ] as const,
    ),
  ]);
}

/** drizzle records each applied migration with its journal time; the newest must be applied. */
async function assertMigrated(ctx: AppContext): Promise<void> {
  const journal = JSON.parse(
    await readFile(join(ctx.config.migrationsDir, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: { when: number; tag: string }[];
  };
  const newest = journal.entries.at(-1);
  if (!newest) return;
  const applied = await newestAppliedMigration(ctx);
  if (applied < newest.when) throw new Error(`migration ${newest.tag} is not applied`);
}
