import { z } from 'zod';

/** `GET /health`: the process serves. */
export const LivenessResponse = z
  .object({ status: z.literal('ok'), version: z.string().optional() })
  .meta({ id: 'LivenessResponse' });

/** `GET /ready`: 200 when every dependency answers, 503 naming the ones that do not. */
export const ReadinessResponse = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.record(z.string(), z.enum(['ok', 'failed'])).meta({
      description: 'Every check by name (`database`, `migrations`, `storage`, `shutdown`): `ok` or `failed`.',
    }),
    failed: z.array(z.string()).optional().meta({ description: 'The failing checks, by name.' }),
    detail: z.string().optional().meta({ description: 'One line per failing check; never a secret.' }),
  })
  .meta({ id: 'ReadinessResponse' });
