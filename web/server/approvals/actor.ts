import type { Caller } from '#server/auth/caller.ts';
import type { ApprovalActor } from '#server/db/schema.ts';

/** The caller as the approval records them: a member, or an assistant acting for its granting member. */
export function approvalActorOf(caller: Pick<Caller, 'userId' | 'actor'>): ApprovalActor {
  return { type: caller.actor.type, id: caller.userId, name: caller.actor.name };
}
