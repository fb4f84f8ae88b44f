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
  const remote =
    ctx.database.kind === 'postgres' && ctx.config.databaseUrl
      ? listenOnPostgres(ctx, ctx.config.databaseUrl, listener)
      : undefined;
  return async () => {
    local.off('due', listener);
    await remote?.();
  };
}

/** A dedicated connection LISTENing on the due channel; it reconnects after errors. */
function listenOnPostgres(ctx: AppContext, url: string, listener: DueListener): () => Promise<void> {
  let stopped = false;
  let client: import('pg').Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const { default: pg } = await import('pg');
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      const at = Number(message.payload);
      if (Number.isFinite(at)) listener(new Date(at));
    });
    next.on('error', () => reconnect());
    try {
      await next.connect();
      await next.query(`LISTEN ${dueChannel}`);
      if (stopped) return void next.end().catch(() => {});
      client = next;
      // Whatever was announced while this connection was down: look again now.
      listener(new Date());
    } catch (error) {
      ctx.logger.warn({ err: error }, 'LISTEN for due posts failed; retrying (the poll covers the gap)');
      next.end().catch(() => {});
      reconnect();
    }
  };
  const reconnect = () => {
    client?.end().catch(() => {});
    client = undefined;
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1000);
    retry.unref();
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
