import type { TargetResult } from '@postwave/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import type { PostStatus } from '#server/db/schema.ts';

/**
 * Collects calls made in the same turn of the event loop and runs them as one statement. Every
 * caller still waits for its own row to be written, so durability per target is unchanged; only
 * the number of database round trips (the dispatcher's bottleneck) goes down.
 */
export class MicroBatcher<I, O> {
  readonly #flush: (items: I[]) => Promise<O[]>;
  readonly #maxSize: number;
  #queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  #scheduled = false;

  constructor(flush: (items: I[]) => Promise<O[]>, maxSize = 200) {
    this.#flush = flush;
    this.#maxSize = maxSize;
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#queue.length >= this.#maxSize) this.#drain();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#drain());
      }
    });
  }

  #drain(): void {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, this.#maxSize);
    if (batch.length === 0) return;
    if (this.#queue.length > 0 && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#drain());
    }
    this.#flush(batch.map((b) => b.item)).then(
      (results) => {
        for (const [i, b] of batch.entries()) b.resolve(results[i]!);
      },
      (error: unknown) => {
        for (const b of batch) b.reject(error);
      },
    );
  }
}

export interface TargetClaim {
  postId: string;
  accountId: string;
  platform: string;
  owner: string;
}

export interface PostFinalization {
  postId: string;
  owner: string;
  status: PostStatus;
  nextAttemptAt: Date | null;
  /** A target result not yet written: written in the same statement. */
  deferred: TargetResult | undefined;
}

const rows = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** One INSERT claims the targets of many posts; each caller learns whether its target is its to send. */
export function targetClaimBatcher(ctx: AppContext): MicroBatcher<TargetClaim, boolean> {
  return new MicroBatcher(async (claims) => {
    const at = new Date().toISOString();
    const values = sql.join(
      claims.map(
        (c) =>
          sql`(${c.postId}::uuid, ${c.accountId}, ${c.platform}, 'publishing', ${c.owner}, 1, ${at}::timestamptz)`,
      ),
      sql`, `,
    );
    const result = await ctx.db.execute(sql`
      INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at)
      VALUES ${values}
      ON CONFLICT (post_id, account_id) DO UPDATE
        SET status = 'publishing', claim_owner = excluded.claim_owner, error = NULL,
          attempts = post_targets.attempts + 1, updated_at = excluded.updated_at
        WHERE post_targets.status = 'failed'
      RETURNING post_id::text AS "postId", account_id AS "accountId"`);
    const won = new Set(
      rows<{ postId: string; accountId: string }>(result).map((r) => `${r.postId}|${r.accountId}`),
    );
    return claims.map((c) => won.has(`${c.postId}|${c.accountId}`));
  });
}

/** One statement writes many posts' final status (and their last target results); answers the status or null when the lease was lost. */
export function finalizationBatcher(ctx: AppContext): MicroBatcher<PostFinalization, PostStatus | null> {
  return new MicroBatcher(async (items) => {
    const now = new Date().toISOString();
    const deferred = items.filter((i) => i.deferred);
    const recorded = deferred.length
      ? sql`recorded AS (
          UPDATE post_targets AS t
          SET status = r.status, platform_post_id = r.platform_post_id, url = r.url, error = r.error, updated_at = r.at
          FROM (VALUES ${sql.join(
            deferred.map((i) => {
              const d = i.deferred!;
              return sql`(${i.postId}::uuid, ${d.accountId}::text, ${i.owner}::text, ${d.status}::text,
                ${d.platformPostId ?? null}::text, ${d.url ?? null}::text,
                ${d.error ? JSON.stringify(d.error) : null}::jsonb, ${now}::timestamptz)`;
            }),
            sql`, `,
          )}) AS r(post_id, account_id, owner, status, platform_post_id, url, error, at)
          WHERE t.post_id = r.post_id AND t.account_id = r.account_id AND t.claim_owner = r.owner
        ), `
      : sql``;
    const values = sql.join(
      items.map(
        (i) => sql`(${i.postId}::uuid, ${i.owner}::text, ${i.status}::text,
          ${i.nextAttemptAt?.toISOString() ?? null}::timestamptz,
          ${i.status === 'posted' ? now : null}::timestamptz)`,
      ),
      sql`, `,
    );
    const result = await ctx.db.execute(sql`
      WITH ${recorded}v(id, owner, status, next_attempt_at, posted_at) AS (VALUES ${values})
      UPDATE posts AS p
      SET status = v.status, next_attempt_at = v.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL,
        updated_at = ${now}::timestamptz, posted_at = coalesce(v.posted_at, p.posted_at)
      FROM v
      WHERE p.id = v.id AND p.lease_owner = v.owner
      RETURNING p.id::text AS id, p.status`);
    const statuses = new Map(rows<{ id: string; status: PostStatus }>(result).map((r) => [r.id, r.status]));
    return items.map((i) => statuses.get(i.postId) ?? null);
  });
}
