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
  })
  .meta({ id: 'DispatchSummary' });
export type DispatchSummary = z.infer<typeof DispatchSummary>;
