import type { ConnectableAccount } from '@postwave/shared';
import type { AuditActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { connectedPlatformAccountIds } from './connect-repository.ts';
import { saveAccount } from './save-account.ts';
import type { AccountView } from './schema.ts';

/**
 * Saves the accounts a user chose among those one login reached. Accounts the user connected
 * earlier through the same login (same `grantKey`) are renewed too, though not chosen again: they
 * share the grant the login just renewed, so one reconnect brings back every account of the login.
 * Answers the chosen accounts.
 */
export async function saveReached(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
  reached: readonly ConnectableAccount[],
  chosen: readonly ConnectableAccount[],
  actor?: AuditActor,
): Promise<AccountView[]> {
  const saved: AccountView[] = [];
  for (const account of chosen) saved.push(await save(ctx, workspaceId, platform, account, actor));
  const grantKeys = new Set(chosen.flatMap((a) => (a.grantKey ? [a.grantKey] : [])));
  if (grantKeys.size === 0) return saved;
  const connected = await connectedPlatformAccountIds(ctx, workspaceId, platform);
  for (const sibling of reached) {
    if (chosen.includes(sibling) || !sibling.grantKey || !grantKeys.has(sibling.grantKey)) continue;
    if (connected.has(sibling.platformAccountId)) await save(ctx, workspaceId, platform, sibling, actor);
  }
  return saved;
}

async function save(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
  reached: ConnectableAccount,
  actor: AuditActor | undefined,
): Promise<AccountView> {
  const { account } = await saveAccount(ctx, workspaceId, {
    platform,
    platformAccountId: reached.platformAccountId,
    credentials: reached.credentials,
    profile: reached.profile,
    grantKey: reached.grantKey,
    actor,
  });
  return account;
}
