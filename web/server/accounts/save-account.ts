import type { AccountProfile } from '@postwave/shared';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { auditAccount } from './audit.ts';
import { accountCredentialsAad, saveGrant } from './credentials.ts';
import { deleteGrantIfUnused } from './grant-repository.ts';
import { type AccountRow, findAccount, findConnectedId, insertAccount, updateAccount } from './repository.ts';
import type { AccountView } from './schema.ts';
import { toView } from './view.ts';

/** The platform just accepted the credentials: a (re)connected account starts healthy. */
const verifiedHealth = (now: Date) => ({
  health: 'ok' as const,
  healthReason: null,
  healthCheckedAt: now,
  healthLeaseUntil: null,
});

/**
 * Saves a verified connection. With `grantKey` (accounts one login connected together) the
 * credentials go to the login's grant, shared with its other accounts; otherwise onto the account.
 */
export async function saveAccount(
  ctx: AppContext,
  workspaceId: string,
  input: {
    platform: string;
    platformAccountId: string;
    credentials: Record<string, unknown>;
    label?: string | undefined;
    profile: AccountProfile;
    grantKey?: string | undefined;
    /** Who connected it (the audit entry's actor); the service itself when not given. */
    actor?: AuditActor | undefined;
  },
): Promise<{ account: AccountView }> {
  // The save and its `account.connected` entry commit together (never a credential in details).
  const audited = <T extends AccountRow | undefined>(
    work: (tx: AppContext) => Promise<T>,
    reconnected: boolean,
  ) =>
    inTransaction(ctx, async (tx: Db) => {
      const row = await work({ ...ctx, db: tx.db });
      if (row) await auditAccount(tx, row, input.actor ?? systemActor, 'account.connected', { reconnected });
      return row;
    });
  const profileColumns = {
    username: input.profile.username ?? null,
    profilePicture: input.profile.avatarUrl ?? null,
  };
  const grantId = input.grantKey
    ? await saveGrant(ctx, {
        workspaceId,
        platform: input.platform,
        grantKey: input.grantKey,
        credentials: input.credentials,
      })
    : null;
  const credentialColumns = (accountId: string) => ({
    grantId,
    credentials: grantId ? null : ctx.cipher.encryptJson(input.credentials, accountCredentialsAad(accountId)),
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = new Date();
    const existing = await findConnectedId(ctx, workspaceId, input.platform, input.platformAccountId);
    if (existing) {
      const previous = await findAccount(ctx, workspaceId, existing);
      const row = await audited(
        (tx) =>
          updateAccount(tx, existing, {
            ...profileColumns,
            ...(input.label !== undefined ? { label: input.label } : {}),
            ...credentialColumns(existing),
            status: 'active',
            ...verifiedHealth(now),
          }),
        true,
      );
      // Moved off a grant (another login, or credentials of its own): a grant left unused goes.
      if (previous?.grantId && previous.grantId !== grantId)
        await deleteGrantIfUnused(ctx.db, previous.grantId);
      return { account: toView(row!) };
    }
    const id = crypto.randomUUID();
    try {
      const row = await audited(
        (tx) =>
          insertAccount(tx, {
            id,
            workspaceId,
            platform: input.platform,
            platformAccountId: input.platformAccountId,
            label: input.label ?? input.profile.name ?? null,
            ...profileColumns,
            ...credentialColumns(id),
            status: 'active',
            ...verifiedHealth(now),
            createdAt: now,
            updatedAt: now,
          }),
        false,
      );
      return { account: toView(row) };
    } catch (error) {
      // Someone connected the same account at the same moment: update theirs instead.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('Could not save the account');
}
