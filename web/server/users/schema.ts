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
    emailVerifiedAt: z
      .string()
      .nullable()
      .meta({ description: 'Null until the user followed the verification link (password sign-ups).' }),
  })
  .meta({ id: 'User' });
export type PublicUser = z.infer<typeof PublicUser>;

export const SignupResponse = z.object({ user: PublicUser });

export const VerifyEmailRequest = z.object({ token: z.string().max(200) });

export const SignInMethods = z
  .object({
    password: z.boolean(),
    identities: z.array(z.object({ provider: z.string(), createdAt: z.string() })),
    providers: z.array(z.object({ id: z.string(), name: z.string() })),
  })
  .meta({ id: 'SignInMethods' });
