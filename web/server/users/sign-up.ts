import { ProblemError, problem } from '@postwave/shared';
import type { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { hashPassword } from '#server/security/passwords.ts';
import * as repo from './repository.ts';
import type { PublicUser, SignupRequest } from './schema.ts';
import { toPublicUser } from './view.ts';

export const minPasswordLength = 10;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function signUp(ctx: AppContext, input: z.infer<typeof SignupRequest>): Promise<PublicUser> {
  const email = normalizeEmail(input.email);
  const errors = [];
  if (!emailPattern.test(email))
    errors.push({ path: 'email', code: 'invalid_email', message: 'Not a valid email address' });
  if (input.password.length < minPasswordLength) {
    errors.push({
      path: 'password',
      code: 'weak_password',
      message: `Use at least ${minPasswordLength} characters`,
    });
  }
  if (errors.length)
    throw new ProblemError(problem('validation_failed', 'The sign-up details are not valid', { errors }));
  const now = new Date();
  try {
    const row = await repo.insertUser(ctx, {
      id: crypto.randomUUID(),
      email,
      name: input.name?.trim() || null,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
    });
    return toPublicUser(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ProblemError(problem('email_taken', 'An account with this email already exists'));
    throw error;
  }
}
