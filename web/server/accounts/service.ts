import { type AccountProfile, type PlatformAccount, zodIssues } from '@postwave/shared';
import { accountCallHint, accountHealthHints } from '@postwave/shared/error-hints';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { isUuid } from '#server/http/ids.ts';
import { specificProblem, validationFailed } from '#server/http/problems.ts';
import { notFound } from '#server/http/respond.ts';
import { emitWebhookEvent } from '#server/webhooks/events.ts';
import { accountCredentialsAad, saveGrant, toPlatformAccount } from './credentials.ts';
import { deleteGrantIfUnused } from './grant-repository.ts';
import {
  type AccountRow,
  accountsOf,
  deleteAccount,
  findAccount,
  findConnectedId,
  insertAccount,
  updateAccount,
} from './repository.ts';
import type { AccountView } from './schema.ts';
import { verifyAccount } from './verify-account.ts';

export { saveRefreshedCredentials, toPlatformAccount } from './credentials.ts';

export async function listAccounts(ctx: AppContext, workspaceId: string): Promise<AccountView[]> {
  return (await accountsOf(ctx, workspaceId)).map(toView);
}

export async function getAccountRow(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
): Promise<AccountRow | undefined> {
  return isUuid(accountId) ? findAccount(ctx, workspaceId, accountId) : undefined;
}

/** Decrypted accounts by id, kept for one dispatch run only. */
export type AccountCache = Map<string, Promise<PlatformAccount | undefined>>;

/** The AccountLookup the PostingService uses: only this user's accounts exist. */
export function accountLookup(ctx: AppContext, workspaceId: string, cache?: AccountCache) {
  const load = async (accountId: string): Promise<PlatformAccount | undefined> => {
    const row = await getAccountRow(ctx, workspaceId, accountId);
    return row ? await toPlatformAccount(ctx, row) : undefined;
  };
  if (!cache) return load;
  return (accountId: string): Promise<PlatformAccount | undefined> => {
    // Keyed by user too: a cache shared by a run never answers one user with another's account.
    const key = `${workspaceId}:${accountId}`;
    let found = cache.get(key);
    if (!found) {
      found = load(accountId);
      cache.set(key, found);
    }
    return found;
  };
}

export interface ConnectInput {
  platform: string;
  platformAccountId?: string | undefined;
  credentials: Record<string, unknown>;
  label?: string | undefined;
}

/**
 * Connects (or reconnects) an account after the platform confirmed the credentials. One account
 * per user, platform and platform account: connecting the same one again replaces its credentials.
 */
export async function connectAccount(
  ctx: AppContext,
  workspaceId: string,
  input: ConnectInput,
  actor: AuditActor = systemActor,
): Promise<{ account: AccountView }> {
  const publisher = ctx.publishers.get(input.platform);
  if (!publisher) {
    throw validationFailed(`Platform "${input.platform}" is not supported`, [
      {
        path: 'platform',
        code: 'platform_unsupported',
        message: `Supported: ${ctx.publishers.ids().join(', ')}`,
      },
    ]);
  }
  const parsed = publisher.credentialsSchema.safeParse(input.credentials);
  if (!parsed.success) {
    throw specificProblem(
      'credentials_invalid',
      `The credentials do not have the shape ${publisher.displayName} needs`,
      zodIssues(parsed.error).map((i) => ({ ...i, path: `credentials${i.path ? `.${i.path}` : ''}` })),
      accountCallHint({ code: 'credentials_invalid' }, 'connect'),
    );
  }
  const verified = await verifyAccount(ctx, publisher, {
    id: 'unsaved',
    platform: input.platform,
    platformAccountId: input.platformAccountId ?? '',
    credentials: parsed.data,
  });
  const platformAccountId = verified.profile.platformAccountId ?? input.platformAccountId;
  if (!platformAccountId) {
    throw specificProblem(
      'target_unreachable',
      'platformAccountId is required for this platform',
      [
        {
          path: 'platformAccountId',
          code: 'required',
          message: 'Name the chat, channel or account to post to',
        },
      ],
      accountCallHint({ code: 'target_unreachable' }, 'connect'),
    );
  }
  return saveAccount(ctx, workspaceId, {
    platform: input.platform,
    platformAccountId,
    credentials: verified.credentials,
    label: input.label,
    profile: verified.profile,
    actor,
  });
}

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

export async function renameAccount(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  label: string | null,
): Promise<AccountView> {
  if (!isUuid(accountId)) throw notFound('account');
  const row = await updateAccount(ctx, accountId, { label }, workspaceId);
  if (!row) throw notFound('account');
  return toView(row);
}

/**
 * Removes an account. Posts not yet posted lose it as a target (its unposted results go too);
 * one left without targets becomes a draft. Posted history keeps its results.
 */
export async function disconnectAccount(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  actor: AuditActor = systemActor,
): Promise<void> {
  if (!isUuid(accountId)) throw notFound('account');
  const disconnected = async (tx: AppContext['db'], row: AccountRow) => {
    await emitWebhookEvent(tx, { workspaceId, type: 'account.disconnected', data: toView(row) });
    await auditAccount({ db: tx }, row, actor, 'account.disconnected', {});
  };
  if (!(await deleteAccount(ctx, workspaceId, accountId, disconnected))) throw notFound('account');
}

/** An account's audit entry: its platform and name, never its credentials. */
function auditAccount(
  tx: Db,
  row: AccountRow,
  actor: AuditActor,
  action: 'account.connected' | 'account.disconnected',
  details: Record<string, unknown>,
): Promise<void> {
  return recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor,
    action,
    target: { type: 'account', id: row.id },
    details: {
      platform: row.platform,
      ...(row.label ? { label: row.label } : {}),
      ...(row.username ? { username: row.username } : {}),
      ...details,
    },
  });
}

export function toView(row: AccountRow): AccountView {
  // A refused publish sets the status before any check does: the hint follows whichever says more.
  const attention = row.status === 'needs_reconnect' ? 'needs_reconnect' : row.health;
  return {
    id: row.id,
    platform: row.platform,
    platformAccountId: row.platformAccountId,
    ...(row.label ? { label: row.label } : {}),
    ...(row.username ? { username: row.username } : {}),
    ...(row.profilePicture ? { profilePicture: row.profilePicture } : {}),
    status: row.status,
    health: row.health,
    ...(row.health !== 'ok' && row.healthReason ? { healthReason: row.healthReason } : {}),
    ...(attention !== 'ok' ? { healthHint: accountHealthHints[attention] } : {}),
    healthCheckedAt: row.healthCheckedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
