import { z } from 'zod';
import { stagingStatuses } from '#server/db/schema.ts';

/** One target's staging (media uploaded to the platform ahead of the due time), as the API shows it. */
export const TargetStaging = z
  .object({
    accountId: z.string(),
    platform: z.string(),
    status: z.enum(stagingStatuses).meta({
      description:
        '`staging`: the media is being uploaded to the platform ahead of the due time. `staged`: it is there; at the due time only the final publishing call is made (until `expiresAt`, when the platform forgets the upload). `stage_failed`: staging did not work (see `error`); the post still publishes at its due time and uploads then, as without staging.',
    }),
    expiresAt: z
      .string()
      .optional()
      .meta({ description: 'With `staged`: when the platform forgets the upload.' }),
    error: z
      .object({ code: z.string(), message: z.string(), retryable: z.boolean() })
      .optional()
      .meta({ description: 'With `stage_failed`: why.' }),
  })
  .meta({ id: 'TargetStaging' });
export type TargetStaging = z.infer<typeof TargetStaging>;
