import type { AppContext } from '#server/context.ts';
import type { AccountHealth } from '#server/db/schema.ts';
import { emitWebhookEvent } from '#server/webhooks/events.ts';
import { notifyAccountHealth } from './health-mail.ts';
import type { HealthChange } from './health-repository.ts';
import { toView } from './view.ts';

/** How a change of an account's health is told: once per change, by webhook event and e-mail. */

/** Injectable effects, so a service test can watch them. */
export interface HealthEffects {
  emit: typeof emitWebhookEvent;
  mail: typeof notifyAccountHealth;
}
export const defaultEffects: HealthEffects = { emit: emitWebhookEvent, mail: notifyAccountHealth };

/** Health states that are bad for the posts scheduled on the account. */
export const badHealth: ReadonlySet<AccountHealth> = new Set(['expiring', 'needs_reconnect', 'unreachable']);
/** Bad states the user can fix, so a change into them is e-mailed (unreachable is usually the platform's outage). */
const mailedHealth: ReadonlySet<AccountHealth> = new Set(['expiring', 'needs_reconnect']);

/** Logs the change; a change to needs_reconnect sends its webhook event, a fixable one an e-mail. */
export async function announce(ctx: AppContext, change: HealthChange, effects: HealthEffects): Promise<void> {
  const { row, previous } = change;
  const log = { accountId: row.id, platform: row.platform, health: row.health, previous };
  if (badHealth.has(row.health)) ctx.logger.warn(log, 'account health changed');
  else ctx.logger.info(log, 'account health changed');
  if (row.health === 'needs_reconnect') {
    try {
      await effects.emit(ctx.db, {
        workspaceId: row.workspaceId,
        type: 'account.needs_reconnect',
        data: toView(row),
      });
    } catch (error) {
      ctx.logger.error(
        { accountId: row.id, err: error instanceof Error ? error.message : String(error) },
        'recording the account.needs_reconnect event failed',
      );
    }
  }
  if (mailedHealth.has(row.health)) await effects.mail(ctx, row);
}
