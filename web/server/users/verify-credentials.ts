import type { AppContext } from '#server/context.ts';
import { dummyPasswordHash, verifyPassword } from '#server/security/passwords.ts';
import * as repo from './repository.ts';
import type { PublicUser } from './schema.ts';
import { normalizeEmail } from './sign-up.ts';
import { toPublicUser } from './view.ts';

/** The user for an email and password, or undefined; takes the same time whether or not the email exists. */
export async function verifyCredentials(
  ctx: AppContext,
  email: string,
  password: string,
): Promise<PublicUser | undefined> {
  const row = await repo.findUserByEmail(ctx, normalizeEmail(email));
  if (!row?.passwordHash) {
    await verifyPassword(password, await dummyPasswordHash());
    return undefined;
  }
  return (await verifyPassword(password, row.passwordHash)) ? toPublicUser(row) : undefined;
}
