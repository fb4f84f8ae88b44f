import {
  idempotencyKeyPattern,
  idempotencyWindowMs,
  ProblemError,
  problem,
  requestFingerprint,
} from '@postwave/shared';
import { and, eq, lt } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { specificProblem } from '../http/problems.ts';
import { json, problemResponse } from '../http/respond.ts';

export interface Outcome {
  status: number;
  body: unknown;
}

/**
 * Runs `operation` at most once per user and `Idempotency-Key`: a repeat with the same body gets
 * the stored response, another body is 422, and a repeat while the first is still running is 409.
 * Client errors are stored like successes; server errors are not, so a retry can succeed.
 */
export async function idempotent(
  ctx: AppContext,
  userId: string,
  request: Request,
  body: unknown,
  operation: () => Promise<Outcome>,
): Promise<Response> {
  const key = request.headers.get('idempotency-key');
  if (key === null) return toResponse(await capture(operation));
  if (!idempotencyKeyPattern.test(key)) {
    throw new ProblemError(
      problem('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters'),
    );
  }
  const requestHash = requestFingerprint(body, `${request.method} ${new URL(request.url).pathname}`);
  const now = new Date();
  const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(where, lt(idempotencyKeys.createdAt, new Date(now.getTime() - idempotencyWindowMs))));
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });

  if (inserted.length === 0) {
    const [existing] = await ctx.db.select().from(idempotencyKeys).where(where);
    if (!existing) throw specificProblem(409, 'idempotency_in_progress', 'Retry the request');
    if (existing.requestHash !== requestHash) {
      throw specificProblem(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body',
      );
    }
    if (existing.responseStatus === null) {
      throw specificProblem(
        409,
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed',
      );
    }
    return toResponse(
      { status: existing.responseStatus, body: existing.responseBody },
      { 'idempotent-replayed': 'true' },
    );
  }

  let outcome: Outcome;
  try {
    outcome = await capture(operation);
  } catch (error) {
    await ctx.db.delete(idempotencyKeys).where(where);
    throw error;
  }
  if (outcome.status >= 500) await ctx.db.delete(idempotencyKeys).where(where);
  else
    await ctx.db
      .update(idempotencyKeys)
      .set({ responseStatus: outcome.status, responseBody: outcome.body })
      .where(where);
  return toResponse(outcome);
}

async function capture(operation: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof ProblemError) return { status: error.status, body: error.problem };
    throw error;
  }
}

function toResponse(outcome: Outcome, headers: Record<string, string> = {}): Response {
  if (outcome.status >= 400) return problemResponse(outcome.body as never, headers);
  return json(outcome.body, outcome.status, headers);
}
