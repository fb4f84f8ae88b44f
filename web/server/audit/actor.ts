import type { AuditActorType } from '#server/db/schema.ts';

/** Who did something, as an audit entry names them (the name as it was then). */
export interface AuditActor {
  type: AuditActorType;
  id?: string | undefined;
  name: string;
}

/** The service itself: the dispatcher publishing a due post, a feed creating one. */
export const systemActor: AuditActor = { type: 'system', name: 'Postwave' };

/**
 * The actor of a REST or server-action caller (server/auth/caller.ts `Caller`; not imported, as
 * the token code that caller.ts uses records audit entries itself): the member (an API or CLI token acts as its
 * member), or an MCP assistant acting for the member who granted it (`id` is that member).
 */
export function actorOf(caller: {
  actor: { type: 'member' | 'assistant'; userId: string; name: string };
}): AuditActor {
  return { type: caller.actor.type, id: caller.actor.userId, name: caller.actor.name };
}

/** An MCP client acting for the member who granted it, named as the member approved it. */
export function assistantActor(userId: string, clientName: string): AuditActor {
  return { type: 'assistant', id: userId, name: clientName };
}
