import type { AuditAction } from '#server/audit/actions.ts';
import type { AuditActor } from '#server/audit/actor.ts';
import { recordAudit } from '#server/audit/record-audit.ts';
import type { Db } from '#server/db/access.ts';
import type { PostEventActor } from '#server/db/schema.ts';
import { nameTimelineActor } from './history-repository.ts';
import type { PostRow } from './repository.ts';

/** How the timeline calls each kind of actor (an API or CLI token acts as its member: `user`). */
const timelineActorOf: Record<AuditActor['type'], PostEventActor> = {
  member: 'user',
  assistant: 'assistant',
  reviewer: 'reviewer',
  system: 'system',
};

/**
 * The status an audit entry names: a post published now is stored `scheduled` under its request's
 * lease (so dispatch finishes it if the process dies), but it was never scheduled: it is `publishing`.
 * Scheduling never leases, and dispatch leases only posts scheduled already.
 */
function auditedStatus(row: Pick<PostRow, 'status' | 'leaseOwner'>): string {
  return row.status === 'scheduled' && row.leaseOwner !== null ? 'publishing' : row.status;
}

/**
 * The audit entry of a change to a post, written with the change's transaction. Details name the
 * status (`publishing` for a post published now) and how many accounts; never the message (it may be long, and the post holds it). The
 * timeline events the database's triggers wrote for the change in this transaction are named
 * after the same actor (contract F: `actor: { type, name }`).
 */
export async function auditPost(
  tx: Db,
  row: Pick<PostRow, 'id' | 'workspaceId' | 'status' | 'leaseOwner' | 'accountIds'>,
  actor: AuditActor,
  action: AuditAction,
  details: Record<string, unknown> = {},
  at?: Date,
): Promise<void> {
  await nameTimelineEvents(tx, row.workspaceId, [row.id], actor);
  await recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor,
    action,
    target: { type: 'post', id: row.id },
    details: { status: auditedStatus(row), accounts: row.accountIds.length, ...details },
    at,
  });
}

/** Names `actor` on the events this transaction's triggers wrote without one for these posts of the workspace. */
export async function nameTimelineEvents(
  tx: Db,
  workspaceId: string,
  postIds: readonly string[],
  actor: AuditActor,
): Promise<void> {
  await nameTimelineActor(tx, workspaceId, postIds, timelineActorOf[actor.type], actor.name);
}
