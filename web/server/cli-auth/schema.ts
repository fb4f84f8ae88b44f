import { z } from 'zod';
import { apiTokenKinds } from '#server/db/schema.ts';

export const CliExchangeRequest = z.object({
  code: z.string().min(1).max(200),
  code_verifier: z.string().min(1).max(200),
});

export const CliTokenResponse = z.object({ token: z.string(), expiresAt: z.string().nullable() });

export const WhoAmI = z
  .object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
    token: z
      .object({
        id: z.string(),
        kind: z.enum(apiTokenKinds),
        name: z.string(),
        expiresAt: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'WhoAmI' });
export type WhoAmI = z.infer<typeof WhoAmI>;
