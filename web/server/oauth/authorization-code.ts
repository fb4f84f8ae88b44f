import type { AppContext } from '#server/context.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import type { AuthorizeRequest } from './authorize-request.ts';
import * as repo from './repository.ts';

export const codeLifetimeMs = 5 * 60 * 1000;

/** A code for the signed-in user's consent, bound to the workspace they picked on the consent screen. */
export async function issueAuthorizationCode(
  ctx: AppContext,
  userId: string,
  r: AuthorizeRequest,
  workspaceId: string,
): Promise<string> {
  const code = newSecret('pwa_');
  const now = new Date();
  await repo.insertAuthorizationCode(ctx, {
    codeHash: hashSecret(code),
    clientId: r.client.id,
    userId,
    workspaceId,
    redirectUri: r.redirectUri,
    codeChallenge: r.codeChallenge,
    scope: r.scope,
    resource: r.resource,
    expiresAt: new Date(now.getTime() + codeLifetimeMs),
    createdAt: now,
  });
  return code;
}
