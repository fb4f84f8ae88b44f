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

/** Lifetimes a personal token may be given at creation (days); 90 when none is chosen. */
/** The lifetimes a personal token may have, in days. */
export const personalTokenLifetimesDays = [30, 90, 365] as const;
export type PersonalTokenLifetimeDays = (typeof personalTokenLifetimesDays)[number];
const isTokenLifetime = (days: number): days is PersonalTokenLifetimeDays =>
  (personalTokenLifetimesDays as readonly number[]).includes(days);

export const CreateTokenRequest = z.object({
  name: z.string().trim().min(1).max(100),
  workspaceId: z.string().optional().meta({
    description:
      'The workspace the token acts in, one the caller belongs to (another id answers 404); default the session’s current workspace.',
  }),
  expiresInDays: z
    .number()
    .refine(isTokenLifetime, 'Choose 30, 90 or 365 days')
    .default(90)
    .meta({
      enum: [...personalTokenLifetimesDays],
      description: 'Lifetime in days: 30, 90 (default) or 365. Another number is 422; not a number, 400.',
    }),
});

/** The only answer that carries the secret, once. */
export const CreatedToken = ApiToken.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
