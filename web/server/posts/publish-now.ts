import type { PreparedPost } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { LeaseKeeper } from '#server/dispatch/lease-keeper.ts';
import { publishLeasedPost } from './publish-leased.ts';
import { type PostRow, renewPostLeases } from './repository.ts';

/** A lease taken by this request to publish a post now: its owner and how long it holds. */
export function requestLease(ctx: AppContext): { owner: string; until: Date } {
  return {
    owner: `request:${crypto.randomUUID()}`,
    until: new Date(Date.now() + ctx.config.dispatcher.leaseMs),
  };
}

/**
 * A publish-now of a post this request leased: the lease is renewed while publishing runs (as a
 * dispatcher renews its claims), so a publish outliving `DISPATCH_LEASE_MS` is never taken over by
 * a dispatcher and sent twice; a process that dies stops renewing and dispatch finishes the post.
 */
export async function publishNow(
  ctx: AppContext,
  row: PostRow,
  owner: string,
  prepared: PreparedPost | undefined,
): Promise<void> {
  const leaseMs = ctx.config.dispatcher.leaseMs;
  const leases = new LeaseKeeper(
    leaseMs,
    (ids) => renewPostLeases(ctx, owner, ids, leaseMs),
    (error) => ctx.logger.warn({ err: error, postId: row.id }, 'could not renew a publish-now lease'),
  );
  leases.hold(row.id);
  try {
    await publishLeasedPost(ctx, row, owner, { kind: 'now' }, prepared);
  } finally {
    leases.release(row.id);
    await leases.stop();
  }
}
