import { z } from 'zod';

/** What one dispatch run did. */
export const DispatchSummary = z
  .object({
    claimed: z.number().int(),
    posted: z.number().int(),
    failed: z.number().int(),
    /** Went back to `scheduled` after a transient failure, to be retried later. */
    rescheduled: z.number().int(),
    /** Claimed but not started before the time budget ran out; handed back at once. */
    released: z.number().int(),
    /**
     * Failed unexpectedly (a database error, say; logged). The post keeps its lease and is retried
     * once the lease expires, as after a crash.
     */
    errored: z.number().int(),
    /** Another dispatcher took the post over (its lease had expired) before this one wrote its outcome. */
    lostLease: z.number().int(),
  })
  .meta({ id: 'DispatchSummary' });
export type DispatchSummary = z.infer<typeof DispatchSummary>;

/** What one cron call did: the dispatch run, and the staging pass beside it. */
export const CronDispatchSummary = DispatchSummary.extend({
  /** Targets whose media this call uploaded ahead of their due time (staged). */
  staged: z.number().int(),
  /** Staged uploads of edited or deleted posts this call removed from the platform. */
  discarded: z.number().int(),
}).meta({ id: 'CronDispatchSummary' });
export type CronDispatchSummary = z.infer<typeof CronDispatchSummary>;
