import { z } from 'zod';
import { apiTokenKinds } from '#server/db/schema.ts';

/** A personal or CLI token as listed: never its secret. */
export const ApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(apiTokenKinds),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'ApiToken' });
export type TokenSummary = z.infer<typeof ApiToken>;

export const TokenList = z.object({ tokens: z.array(ApiToken) });

export const CreateTokenRequest = z.object({ name: z.string().trim().min(1).max(100) });

/** The only answer that carries the secret, once. */
export const CreatedToken = ApiToken.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
