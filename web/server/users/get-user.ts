import { sessionIsCurrent } from '#server/auth/session.ts';
import type { AppContext } from '#server/context.ts';
import * as repo from './repository.ts';
import type { PublicUser } from './schema.ts';
import { toPublicUser } from './view.ts';

/** True once someone has signed up on this server (the sign-in page's first-visit greeting). */
export async function hasAnyUser(ctx: AppContext): Promise<boolean> {
  return repo.anyUserExists(ctx);
}

export async function getUser(ctx: AppContext, userId: string): Promise<PublicUser | undefined> {
  const row = await repo.findUser(ctx, userId);
  return row ? toPublicUser(row) : undefined;
}

/**
 * The user behind a browser session, if the user still exists and has not reset the password
 * since the session began (`authTime`). Every session check (API caller, pages, CLI login,
 * provider linking) asks here.
 */
export async function sessionUser(
  ctx: AppContext,
  userId: string,
  authTime: unknown,
): Promise<repo.UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const row = await repo.findUser(ctx, userId);
  return row && sessionIsCurrent(authTime, row.sessionsValidAfter) ? row : undefined;
}
