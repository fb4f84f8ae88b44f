import { type ConnectableAccount, ProblemError, problem } from '@postwave/shared';
import type { AuditActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret } from '#server/security/tokens.ts';
import {
  connectedPlatformAccountIds,
  deletePendingConnection,
  findPendingConnection,
} from './connect-repository.ts';
import { displayName } from './oauth-connect.ts';
import { saveReached } from './oauth-save.ts';
import type { AccountView } from './schema.ts';

/** The picker page of the OAuth connect flow: one login reached several accounts, the user picks. */

/** One choice on the picker page: what the user sees, never the credentials. */
export interface PendingChoice {
  platformAccountId: string;
  name: string;
  username?: string;
  avatarUrl?: string;
  kind?: string;
  /** Already connected by this user: picking it again refreshes its credentials. */
  connected: boolean;
}

export interface PendingConnection {
  platform: string;
  platformName: string;
  choices: PendingChoice[];
  expiresAt: string;
}

async function loadPending(
  ctx: AppContext,
  workspaceId: string,
  token: string,
): Promise<
  { tokenHash: string; platform: string; reached: ConnectableAccount[]; expiresAt: Date } | undefined
> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const tokenHash = hashSecret(token);
  const row = await findPendingConnection(ctx, { tokenHash, workspaceId });
  if (!row) return undefined;
  const reached = ctx.cipher.decryptJson<ConnectableAccount[]>(row.accounts, `connect-pending:${tokenHash}`);
  return { tokenHash, platform: row.platform, reached, expiresAt: row.expiresAt };
}

/** The picker's choices, or undefined when the token is unknown, expired or another user's. */
export async function getPendingConnection(
  ctx: AppContext,
  workspaceId: string,
  token: string,
): Promise<PendingConnection | undefined> {
  const pending = await loadPending(ctx, workspaceId, token);
  if (!pending) return undefined;
  const connected = await connectedPlatformAccountIds(ctx, workspaceId, pending.platform);
  return {
    platform: pending.platform,
    platformName: displayName(ctx, pending.platform),
    expiresAt: pending.expiresAt.toISOString(),
    choices: pending.reached.map((a) => ({
      platformAccountId: a.platformAccountId,
      name: a.profile.name,
      ...(a.profile.username ? { username: a.profile.username } : {}),
      ...(a.profile.avatarUrl ? { avatarUrl: a.profile.avatarUrl } : {}),
      ...(a.kind ? { kind: a.kind } : {}),
      connected: connected.has(a.platformAccountId),
    })),
  };
}

/**
 * Saves the picked accounts, one connected account each, and ends the pending connection.
 * Unknown ids are refused (422) so a stale form never connects something else.
 */
export async function pickAccounts(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
  token: string,
  platformAccountIds: string[],
  actor?: AuditActor,
): Promise<AccountView[]> {
  const pending = await loadPending(ctx, workspaceId, token);
  if (!pending || pending.platform !== platform) throw notFound('pending connection');
  const chosen = [...new Set(platformAccountIds)];
  if (chosen.length === 0) {
    throw new ProblemError(
      problem('validation_failed', 'Choose at least one account to connect', {
        errors: [{ path: 'accountIds', code: 'required', message: 'Choose at least one account' }],
      }),
    );
  }
  const unknown = chosen.filter((id) => !pending.reached.some((a) => a.platformAccountId === id));
  if (unknown.length > 0) {
    throw new ProblemError(
      problem('validation_failed', 'Some chosen accounts were not offered by this login', {
        errors: unknown.map((id) => ({
          path: 'accountIds',
          code: 'unknown_account',
          message: id.slice(0, 200),
        })),
      }),
    );
  }
  if (!(await deletePendingConnection(ctx, { tokenHash: pending.tokenHash, workspaceId })))
    throw notFound('pending connection');
  const picked = pending.reached.filter((a) => chosen.includes(a.platformAccountId));
  return saveReached(ctx, workspaceId, platform, pending.reached, picked, actor);
}
