import { EventEmitter } from 'node:events';
import type { AppContext } from '#server/context.ts';

/** The channel the `posts` and `accounts` triggers NOTIFY on (see drizzle/0007_assistants.sql). */
export const postStatusChannel = 'postwave_post_status';

export type PostStatusChange =
  | {
      kind: 'post';
      id: string;
      workspaceId: string;
      /** The post's new status, or `deleted`. */
      status: string;
    }
  /** A connected account of the user was added, removed, renamed or changed health. */
  | { kind: 'accounts'; workspaceId: string };

interface Feed {
  emitter: EventEmitter;
  started: Promise<void>;
}

/*
 * One LISTEN per process, shared by every Next.js bundle through globalThis. A database trigger
 * sends the notification whatever changed the status (publish now, dispatch on any instance, an
 * edit), so PostgreSQL deployments hear changes made by other instances; PGlite delivers its own
 * NOTIFYs in process.
 */
const holder = globalThis as typeof globalThis & { __postwaveStatusFeed?: Feed };

function changeOf(value: Record<string, unknown>): PostStatusChange | undefined {
  if (typeof value.workspaceId !== 'string') return undefined;
  if (value.kind === 'accounts') return { kind: 'accounts', workspaceId: value.workspaceId };
  if (typeof value.id === 'string' && typeof value.status === 'string')
    return { kind: 'post', id: value.id, workspaceId: value.workspaceId, status: value.status };
  return undefined;
}

/** One change, or a statement's status changes (`{ posts: […] }`, migration 0038). */
function parse(payload: string): PostStatusChange[] {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    const all = Array.isArray(value.posts) ? (value.posts as Record<string, unknown>[]) : [value];
    return all.flatMap((one) => {
      const change = one !== null && typeof one === 'object' ? changeOf(one) : undefined;
      return change ? [change] : [];
    });
  } catch {
    return [];
  }
}

function feed(ctx: AppContext): Feed {
  if (!holder.__postwaveStatusFeed) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    const started = ctx.database
      .listen(postStatusChannel, (payload) => {
        for (const change of parse(payload)) emitter.emit('change', change);
      })
      .then(() => undefined);
    const created: Feed = { emitter, started };
    holder.__postwaveStatusFeed = created;
    started.catch((error: unknown) => {
      ctx.logger.error({ err: error }, 'could not listen for post status changes');
      if (holder.__postwaveStatusFeed === created) holder.__postwaveStatusFeed = undefined;
    });
  }
  return holder.__postwaveStatusFeed;
}

/** Calls `onChange` for every post status change in the deployment until the returned function runs. */
export async function onPostStatusChange(
  ctx: AppContext,
  onChange: (change: PostStatusChange) => void,
): Promise<() => void> {
  const current = feed(ctx);
  current.emitter.on('change', onChange);
  await current.started.catch(() => {});
  return () => current.emitter.off('change', onChange);
}
