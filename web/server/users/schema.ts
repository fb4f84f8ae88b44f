import { z } from 'zod';

export const SignupRequest = z.object({
  email: z.string().max(320),
  password: z.string().max(1024),
  name: z.string().max(200).optional(),
});

export const PublicUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    timezone: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'User' });
export type PublicUser = z.infer<typeof PublicUser>;

export const SignupResponse = z.object({ user: PublicUser });
