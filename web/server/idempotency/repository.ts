import {
  type ClaimResult,
  type IdempotencyStore,
  jsonContentType,
  type KeyRef,
  problemContentType,
  type StoredResponse,
} from '@postwave/shared';
import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import type { Database } from '#server/db/client.ts';
import { idempotencyKeys } from '#server/db/schema.ts';

/**
 * A claim whose instance died mid-request is taken as abandoned after this long, far beyond any
 * publish (each is bounded by its retry deadline), so its key is not refused with 409 for a day.
 */
const abandonedClaimMs = 15 * 60 * 1000;
/** How often one process sweeps out every expired row (keys are otherwise cleared on reuse). */
const sweepEveryMs = 10 * 60 * 1000;

/**
 * The Scheduler's keys in its database, so every instance sees the same claims and answers and a
 * restart forgets nothing. Each step is one statement: the primary key on (user, key) makes the
 * claim atomic across instances.
 */
export class DatabaseIdempotencyStore implements IdempotencyStore {
  readonly #db: Database;
  #lastSweep = 0;

  constructor(db: Database) {
    this.#db = db;
  }

  async claim(ref: KeyRef, fingerprint: string, now: Date): Promise<ClaimResult> {
    await this.#sweep(now);
    const where = this.#where(ref);
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.#db.delete(idempotencyKeys).where(and(where, lte(idempotencyKeys.expiresAt, now)));
      const inserted = await this.#db
        .insert(idempotencyKeys)
        .values({
          ...scopeOf(ref),
          key: ref.key,
          requestHash: fingerprint,
          createdAt: now,
          expiresAt: new Date(now.getTime() + abandonedClaimMs),
        })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length > 0) return { state: 'claimed' };
      const [row] = await this.#db.select().from(idempotencyKeys).where(where);
      // Gone between the insert and the select (finished and released): try to claim again.
      if (!row) continue;
      if (row.responseStatus === null) return { state: 'in_progress', fingerprint: row.requestHash };
      return { state: 'completed', fingerprint: row.requestHash, response: storedResponse(row) };
    }
    return { state: 'in_progress', fingerprint };
  }

  async complete(ref: KeyRef, response: StoredResponse, expiresAt: Date): Promise<void> {
    await this.#db
      .update(idempotencyKeys)
      .set({
        responseStatus: response.status,
        responseContentType: response.contentType,
        responseBody: response.body,
        expiresAt,
      })
      .where(and(this.#where(ref), isNull(idempotencyKeys.responseStatus)));
  }

  async release(ref: KeyRef): Promise<void> {
    await this.#db
      .delete(idempotencyKeys)
      .where(and(this.#where(ref), isNull(idempotencyKeys.responseStatus)));
  }

  #where(ref: KeyRef) {
    const { workspaceId, userId } = scopeOf(ref);
    return and(
      eq(idempotencyKeys.workspaceId, workspaceId),
      eq(idempotencyKeys.userId, userId),
      eq(idempotencyKeys.key, ref.key),
    );
  }

  async #sweep(now: Date): Promise<void> {
    if (now.getTime() - this.#lastSweep < sweepEveryMs) return;
    this.#lastSweep = now.getTime();
    await this.#db
      .delete(idempotencyKeys)
      .where(and(isNotNull(idempotencyKeys.responseStatus), lte(idempotencyKeys.expiresAt, now)));
  }
}

function storedResponse(row: typeof idempotencyKeys.$inferSelect): StoredResponse {
  const status = row.responseStatus!;
  return {
    status,
    // Rows written before the exact-bytes migration carry no type.
    contentType: row.responseContentType ?? (status >= 400 ? problemContentType : jsonContentType),
    body: row.responseBody ?? '',
  };
}

const stores = new WeakMap<Database, DatabaseIdempotencyStore>();

/** One store per database, so its sweep clock is shared by every request. */
export function idempotencyStoreFor(ctx: AppContext): DatabaseIdempotencyStore {
  let store = stores.get(ctx.db);
  if (!store) {
    store = new DatabaseIdempotencyStore(ctx.db);
    stores.set(ctx.db, store);
  }
  return store;
}

/** Keys are per member and workspace: the SDK's one `scope` string carries both ids (UUIDs, no colon). */
export function idempotencyScope(caller: { workspaceId: string; userId: string }): string {
  return `${caller.workspaceId}:${caller.userId}`;
}

function scopeOf(ref: KeyRef): { workspaceId: string; userId: string } {
  const [workspaceId = '', userId = ''] = ref.scope.split(':');
  return { workspaceId, userId };
}
