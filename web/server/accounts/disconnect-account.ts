import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { emitWebhookEvent } from '#server/webhooks/events.ts';
import { auditAccount } from './audit.ts';
import { type AccountRow, deleteAccount } from './repository.ts';
import { toView } from './view.ts';

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
