import { z } from 'zod';
import { apiTokenKinds } from '#server/db/schema.ts';

/** A personal or CLI token as listed: never its secret. */
export const ApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(apiTokenKinds),
    workspaceId: z.string().meta({ description: 'The workspace the token acts in (bound at creation).' }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable().meta({
      description:
        'When the token stops working (then 401 `unauthorized`, its `WWW-Authenticate` challenge saying `The token expired`). Personal tokens: fixed at creation. CLI tokens: 90 days after the last use, moved on by each use. Null only for tokens from before expiry existed that were never migrated.',
    }),
  })
  .meta({ id: 'ApiToken' });
export type TokenSummary = z.infer<typeof ApiToken>;

export const TokenList = z.object({ tokens: z.array(ApiToken) });

/** The longest a personal token may live, in days (contract D: at most a year). */
export const maxPersonalTokenLifetimeDays = 365;

export const CreateTokenRequest = z.object({
  name: z.string().trim().min(1).max(100),
  workspaceId: z.string().optional().meta({
    description:
      'The workspace the token acts in, one the caller belongs to (another id answers 404); default the session’s current workspace.',
  }),
  expiresInDays: z
    // An integer, as everywhere: a fraction is a wrong type (400), as the OpenAPI `integer` says; 0 or 366 is 422.
    .int()
    .min(1, 'At least 1 day')
    .max(maxPersonalTokenLifetimeDays, 'At most 365 days (a year)')
    .default(90)
    .meta({
      description:
        'Lifetime in whole days, 1 to 365 (a year at most; the settings page offers 30, 90 and 365); default 90. Another whole number is 422; a fraction or not a number, 400.',
    }),
});

/** The only answer that carries the secret, once. */
export const CreatedToken = ApiToken.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
