import { EventEmitter } from 'node:events';
import type { AppContext } from '#server/context.ts';
import { dueChannel, notifyDue } from './repository.ts';

/**
 * How a dispatcher hears that a post became due earlier than its alarm: in this process, an
 * event; from other instances on PostgreSQL, LISTEN/NOTIFY. The poll interval stays as the
 * safety net for a notification lost while a listener reconnects. PGlite is one process's
 * database, so the in-process event is all it needs.
 */
// On globalThis: Next.js may load this module once per bundle (instrumentation, route handlers),
// and the dispatcher must hear announcements from all of them.
const holder = globalThis as typeof globalThis & { __postwaveDueEvents?: EventEmitter };
holder.__postwaveDueEvents ??= new EventEmitter().setMaxListeners(0);
const local = holder.__postwaveDueEvents;

export type DueListener = (at: Date) => void;

/** Announces that a post is due at `at` (scheduled, or moved). Never throws: the poll catches up. */
export async function announceDue(ctx: AppContext, at: Date): Promise<void> {
  local.emit('due', at);
  if (ctx.database.kind !== 'postgres') return;
  try {
    await notifyDue(ctx, at);
  } catch (error) {
    ctx.logger.warn({ err: error }, 'could not notify other instances of a due post; their poll will');
  }
}

/** Calls `listener` for every announcement, here and (on PostgreSQL) from other instances. */
export function listenForDue(ctx: AppContext, listener: DueListener): () => Promise<void> {
  local.on('due', listener);
  // PGlite's own NOTIFY would repeat the local event: only PostgreSQL needs the listening connection.
  const remote =
    ctx.database.kind === 'postgres'
      ? ctx.database
          .listen(dueChannel, (payload) => {
            const at = Number(payload);
            if (Number.isFinite(at)) listener(new Date(at));
          })
          .catch((error: unknown) => {
            ctx.logger.warn({ err: error }, 'LISTEN for due posts failed; the safety-net poll covers it');
            return undefined;
          })
      : undefined;
  return async () => {
    local.off('due', listener);
    await (await remote)?.();
  };
}
