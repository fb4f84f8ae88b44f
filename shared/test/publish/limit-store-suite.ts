import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LimitAttempt, LimitGrant, LimitStore } from '../../src/publish/limit-store.ts';

/** What every LimitStore must do; `open` returns stores sharing one state (instances of one deployment). */
export interface LimitStoreSuiteOptions {
  open(): Promise<{ stores: LimitStore[]; close(): Promise<void> }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function granted(attempt: LimitAttempt): LimitGrant {
  assert.equal(attempt.granted, true, `expected a grant, got ${JSON.stringify(attempt)}`);
  return (attempt as { grant: LimitGrant }).grant;
}

function refused(attempt: LimitAttempt, key: string): number | undefined {
  assert.equal(attempt.granted, false, 'expected a refusal');
  const refusal = attempt as { blockedKey: string; retryInMs?: number };
  assert.equal(refusal.blockedKey, key);
  return refusal.retryInMs;
}

/** Registers the conformance tests of a LimitStore (call inside `describe`). */
export function limitStoreSuite(options: LimitStoreSuiteOptions): void {
  const key = () => `k-${crypto.randomUUID()}`;

  it('grants slots up to the limit and frees them on release', async () => {
    const { stores, close } = await options.open();
    try {
      const [store] = stores;
      const slot = key();
      const first = granted(await store!.tryAcquire([{ key: slot, limit: 2 }]));
      granted(await store!.tryAcquire([{ key: slot, limit: 2 }]));
      assert.equal(refused(await store!.tryAcquire([{ key: slot, limit: 2 }]), slot), undefined);
      await first.release();
      await first.release(); // idempotent: frees one slot, not two
      granted(await store!.tryAcquire([{ key: slot, limit: 2 }]));
      refused(await store!.tryAcquire([{ key: slot, limit: 2 }]), slot);
    } finally {
      await close();
    }
  });

  it('takes all grants or none', async () => {
    const { stores, close } = await options.open();
    try {
      const [store] = stores;
      const a = key();
      const b = key();
      granted(await store!.tryAcquire([{ key: b, limit: 1 }]));
      refused(
        await store!.tryAcquire([
          { key: a, limit: 1 },
          { key: b, limit: 1 },
        ]),
        b,
      );
      // The refusal took nothing on `a`.
      granted(await store!.tryAcquire([{ key: a, limit: 1 }]));
    } finally {
      await close();
    }
  });

  it('holds a rate over a sliding window and says when the next grant frees', async () => {
    const { stores, close } = await options.open();
    try {
      const [store] = stores;
      const rate = key();
      const request = { key: rate, limit: 3, windowMs: 400 };
      const grants = [];
      for (let i = 0; i < 3; i++) grants.push(granted(await store!.tryAcquire([request])));
      // Releasing does not give rate grants back: they run out with their window.
      for (const g of grants) await g.release();
      const retryIn = refused(await store!.tryAcquire([request]), rate);
      assert.ok(retryIn !== undefined && retryIn > 0 && retryIn <= 400, `retryIn ${retryIn}`);
      await sleep(retryIn + 30);
      granted(await store!.tryAcquire([request]));
    } finally {
      await close();
    }
  });

  it('shares state between the stores of one deployment', async () => {
    const { stores, close } = await options.open();
    try {
      const slot = key();
      const rate = key();
      const held = granted(await stores[0]!.tryAcquire([{ key: slot, limit: 1 }]));
      refused(await stores.at(-1)!.tryAcquire([{ key: slot, limit: 1 }]), slot);
      await held.release();
      granted(await stores.at(-1)!.tryAcquire([{ key: slot, limit: 1 }]));
      granted(await stores[0]!.tryAcquire([{ key: rate, limit: 1, windowMs: 60_000 }]));
      refused(await stores.at(-1)!.tryAcquire([{ key: rate, limit: 1, windowMs: 60_000 }]), rate);
    } finally {
      await close();
    }
  });

  it('answers concurrent acquisitions without ever exceeding a limit', async () => {
    const { stores, close } = await options.open();
    try {
      const slot = key();
      const attempts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          stores[i % stores.length]!.tryAcquire([{ key: slot, limit: 7 }]),
        ),
      );
      assert.equal(attempts.filter((a) => a.granted).length, 7);
    } finally {
      await close();
    }
  });
}
