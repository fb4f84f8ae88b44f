import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import {
  type IdempotencyStore,
  idempotencyWindowMs,
  type OperationResult,
  ProblemError,
  problem,
  runIdempotent,
} from '../../src/index.ts';

/**
 * The protocol's time and state rules over one store, with a clock the test moves: every store
 * (memory, database) must pass the same cases. `scope()` gives a scope the store accepts (the
 * Scheduler's is a user id that must exist).
 */
export function storeConformance(store: () => IdempotencyStore, scope: () => string | Promise<string>): void {
  async function harness() {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const s = store();
    const owner = await scope();
    let runs = 0;
    const call = (key: string, body: unknown, result: OperationResult | (() => Promise<OperationResult>)) =>
      runIdempotent(
        {
          store: s,
          scope: owner,
          key,
          method: 'POST',
          path: '/api/v1/posts',
          body,
          now: () => new Date(now),
        },
        async () => {
          runs++;
          return typeof result === 'function' ? result() : result;
        },
      );
    return {
      call,
      advance: (ms: number) => {
        now += ms;
      },
      runs: () => runs,
      store: s,
      owner,
    };
  }

  it('replays a stored answer for 24 hours and forgets it after', async () => {
    const h = await harness();
    const key = randomUUID();
    const first = await h.call(key, { a: 1 }, { status: 200, body: { ok: 1, z: [1, 2] } });
    h.advance(idempotencyWindowMs - 1);
    const replay = await h.call(key, { a: 1 }, { status: 200, body: { other: true } });
    assert.equal(replay.body, first.body);
    assert.equal(replay.headers['Idempotent-Replayed'], 'true');
    assert.equal(h.runs(), 1);
    h.advance(1);
    const fresh = await h.call(key, { a: 2 }, { status: 200, body: { again: true } });
    assert.equal(fresh.body, '{"again":true}');
    assert.equal(fresh.headers['Idempotent-Replayed'], undefined);
    assert.equal(h.runs(), 2);
  });

  it('stores 2xx, 207 and 502; releases 4xx, 501, 500 and thrown errors', async () => {
    const h = await harness();
    for (const status of [200, 201, 207, 502]) {
      const key = randomUUID();
      await h.call(key, {}, { status, body: { status } });
      const replay = await h.call(key, {}, { status: 200, body: {} });
      assert.equal(replay.status, status);
      assert.equal(replay.headers['Idempotent-Replayed'], 'true');
    }
    for (const status of [400, 401, 404, 409, 413, 415, 422, 429, 501, 500]) {
      const key = randomUUID();
      const refused = await h.call(key, {}, { status, body: { status } });
      assert.equal(refused.status, status);
      const next = await h.call(key, { changed: true }, { status: 200, body: {} });
      assert.equal(next.status, 200, `a ${status} must release its key`);
    }
    const key = randomUUID();
    await assert.rejects(
      h.call(key, {}, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal((await h.call(key, { other: 1 }, { status: 200, body: {} })).status, 200);
    const limited = randomUUID();
    const answer = await h.call(limited, {}, async () => {
      throw new ProblemError(problem('rate_limited', 'slow down'), { 'Retry-After': '7' });
    });
    assert.equal(answer.status, 429);
    assert.equal(answer.headers['Retry-After'], '7');
    assert.equal((await h.call(limited, {}, { status: 200, body: {} })).status, 200);
  });

  it('holds a running claim: duplicates get 409, another body 422, the same key elsewhere is free', async () => {
    const h = await harness();
    const key = randomUUID();
    let finish!: (result: OperationResult) => void;
    const running = h.call(key, { a: 1 }, () => new Promise<OperationResult>((r) => (finish = r)));
    await new Promise((r) => setTimeout(r, 50));
    await assert.rejects(h.call(key, { a: 1 }, { status: 200, body: {} }), (error: ProblemError) => {
      assert.equal(error.problem.code, 'idempotency_in_progress');
      assert.equal(error.headers['Retry-After'], '1');
      return true;
    });
    await assert.rejects(
      h.call(key, { a: 2 }, { status: 200, body: {} }),
      (error: ProblemError) => error.problem.code === 'idempotency_key_reused',
    );
    // Hours later the claim still holds while its request runs.
    h.advance(60 * 1000);
    await assert.rejects(
      h.call(key, { a: 1 }, { status: 200, body: {} }),
      (error: ProblemError) => error.problem.code === 'idempotency_in_progress',
    );
    finish({ status: 201, body: { done: true } });
    assert.equal((await running).status, 201);
    const replay = await h.call(key, { a: 1 }, { status: 200, body: {} });
    assert.equal(replay.body, '{"done":true}');
    assert.equal(h.runs(), 1);
  });

  it('keeps the exact bytes of the answer', async () => {
    const h = await harness();
    const key = randomUUID();
    const body = { z: 1, a: { ü: '€ \u2028 "quoted"', n: 1.5e-7, list: [null, true] } };
    const first = await h.call(key, { q: 1 }, { status: 201, body });
    const replay = await h.call(key, { q: 1 }, { status: 200, body: {} });
    assert.equal(replay.body, first.body);
    assert.equal(replay.body, JSON.stringify(body));
    assert.equal(replay.contentType, first.contentType);
  });
}
