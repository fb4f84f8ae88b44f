import type { Db } from '#server/db/access.ts';
import type { AuditAction, AuditTargetType } from './actions.ts';
import type { AuditActor } from './actor.ts';
import { insertAuditEntries, type NewAuditRow } from './repository.ts';

export interface AuditEntryInput {
  workspaceId: string;
  actor: AuditActor;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** What helps a reader (a name, a role, a platform): never a secret, token or credential. */
  details?: Record<string, unknown> | undefined;
  /**
   * When, if not now: a change that writes two entries (a post stored and submitted) stamps the
   * second a millisecond later, so a newest-first list shows them in the order they happened.
   */
  at?: Date | undefined;
}

/** The `at` of an entry that follows one stamped `at` in the same change (see `AuditEntryInput.at`). */
export const justAfter = (at: Date): Date => new Date(at.getTime() + 1);

/**
 * Writes audit entries with `tx`, the transaction of the change they describe: the entry commits
 * with the change or not at all (docs/workspaces.md#audit-log).
 */
export async function recordAudit(
  tx: Db,
  entry: AuditEntryInput | readonly AuditEntryInput[],
): Promise<void> {
  const entries: readonly AuditEntryInput[] = Array.isArray(entry) ? entry : [entry as AuditEntryInput];
  const at = new Date();
  await insertAuditEntries(
    tx,
    entries.map((e) => toRow(e, at)),
  );
}

function toRow(entry: AuditEntryInput, at: Date): NewAuditRow {
  return {
    id: crypto.randomUUID(),
    workspaceId: entry.workspaceId,
    at: entry.at ?? at,
    actorType: entry.actor.type,
    actorId: entry.actor.id ?? null,
    actorName: entry.actor.name.slice(0, 200),
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    details: entry.details && Object.keys(entry.details).length > 0 ? entry.details : null,
  };
}
