import type { AppContext } from '#server/context.ts';
import { withAnalyticsSlot } from './platform-call.ts';

/*
 * The workers of one collection run (docs/analytics.md#rate-limits): `concurrency` of them ask for
 * accounts at once, from the first round to the last. A worker holds one analytics slot of a
 * platform while it works through that platform's accounts, and keeps it while the next round is
 * on its way (it is claimed ahead): about one acquisition per worker and second rather than one
 * per round. It gives the slot back when another platform has work waiting (and takes that up
 * under that platform's slot), and between rounds once it held it `slotHoldMs`, so the followers
 * collection and other instances asking the same scope get their turn during a long run.
 */

const slotHoldMs = 1_000;

/** One account's work of a round, done under its platform's slot. */
export interface AccountJob {
  platform: string;
  run(): Promise<void>;
}

export interface CollectWorkers {
  /** Queues a round's jobs; answers when every one of them ran (or was dropped). */
  add(jobs: readonly AccountJob[]): Promise<void>;
  /** No more rounds: the workers finish what is queued and stop. */
  close(): Promise<void>;
}

interface Queued {
  job: AccountJob;
  settled(): void;
}

export function startCollectWorkers(ctx: AppContext, concurrency: number): CollectWorkers {
  const queues = new Map<string, Queued[]>();
  let closed = false;
  let wake: (() => void) | undefined;
  let changed = new Promise<void>((resolve) => (wake = resolve));
  const signal = () => {
    wake?.();
    changed = new Promise<void>((resolve) => (wake = resolve));
  };
  const platformWithWork = (except?: string) =>
    [...queues].find(([platform, queue]) => platform !== except && queue.length > 0)?.[0];

  const runOne = async (queued: Queued) => {
    try {
      await queued.job.run();
    } catch (error) {
      // A job handles its platform's failures; this is the database failing it (its targets keep
      // their leases and come due again when those run out).
      ctx.logger.warn({ err: error, platform: queued.job.platform }, 'collecting an account failed');
    } finally {
      queued.settled();
    }
  };

  const worker = async () => {
    for (;;) {
      const platform = platformWithWork();
      if (!platform) {
        if (closed) return;
        await changed;
        continue;
      }
      const queue = queues.get(platform)!;
      const drain = async () => {
        const since = Date.now();
        for (;;) {
          const next = queue.shift();
          if (next) {
            await runOne(next);
            continue;
          }
          if (closed || platformWithWork(platform) || Date.now() - since >= slotHoldMs) return;
          await changed;
        }
      };
      const publisher = ctx.publishers.get(platform);
      if (!publisher?.metrics) {
        await drain();
        continue;
      }
      try {
        await withAnalyticsSlot(ctx, publisher, drain);
      } catch (error) {
        // The limits could not be asked (the database): the accounts queued keep their targets'
        // leases and come due again when those run out.
        ctx.logger.warn({ err: error, platform }, 'collecting post metrics could not take a slot');
        for (const dropped of queue.splice(0)) dropped.settled();
      }
    }
  };
  const workers = Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));

  return {
    async add(jobs) {
      const settled = jobs.map((job) => {
        let done!: () => void;
        const promise = new Promise<void>((resolve) => (done = resolve));
        const queue = queues.get(job.platform);
        const queued = { job, settled: done };
        if (queue) queue.push(queued);
        else queues.set(job.platform, [queued]);
        return promise;
      });
      signal();
      await Promise.all(settled);
    },
    async close() {
      closed = true;
      signal();
      await workers;
    },
  };
}
