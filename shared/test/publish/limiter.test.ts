import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { AnyPublisher, PlatformAccount } from '../../src/platforms/types.ts';
import {
  type LimitRequest,
  type LimitStore,
  MemoryLimitStore,
  PlatformLimiter,
} from '../../src/publish/limiter.ts';

/** Starts `count` tasks that each hold their slot until released; reports how many run at once. */
function harness() {
  let running = 0;
  let peak = 0;
  const gates: (() => void)[] = [];
  const task = () => async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
    return 'done';
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const releaseAll = async () => {
    while (gates.length > 0 || running > 0) {
      for (const open of gates.splice(0)) open();
      await settle();
    }
  };
  /** Lets the oldest running task finish, and whatever that starts begin. */
  const releaseOne = async () => {
    gates.shift()?.();
    for (let i = 0; i < 3; i++) await settle();
  };
  return {
    task,
    settle,
    releaseAll,
    releaseOne,
    get running() {
      return running;
    },
    get peak() {
      return peak;
    },
  };
}

function publisher(overrides: Partial<AnyPublisher> = {}): AnyPublisher {
  return {
    id: 'bots',
    displayName: 'Bots',
    optionsSchema: z.object({}),
    credentialsSchema: z.object({}),
    concurrency: 8,
    credentialConcurrency: 3,
    concurrencyKey: (account) => String(account.credentials.bot),
    validate: async () => ({ errors: [], warnings: [] }),
    publish: async () => ({ platformPostId: '1' }),
    verifyCredentials: async () => ({ name: 'x' }),
    ...overrides,
  };
}

const account = (bot: string, i: number): PlatformAccount => ({
  id: `a${i}`,
  platform: 'bots',
  platformAccountId: `chat${i}`,
  credentials: { bot },
});

describe('PlatformLimiter', () => {
  it('holds a per-platform limit', async () => {
    const limiter = new PlatformLimiter();
    const h = harness();
    const runs = Array.from({ length: 5 }, () => limiter.run('p', 2, h.task()));
    await h.settle();
    assert.equal(h.running, 2);
    await h.releaseAll();
    assert.deepEqual(await Promise.all(runs), Array(5).fill('done'));
    assert.equal(h.peak, 2);
  });

  it('limits each credential separately, under the platform-wide limit', async () => {
    const limiter = new PlatformLimiter();
    const h = harness();
    const p = publisher();
    // 5 tasks on bot A (limit 3 each), 5 on bot B, 5 on bot C: the platform's 8 caps the total.
    const runs = ['A', 'B', 'C'].flatMap((bot) =>
      Array.from({ length: 5 }, (_, i) => limiter.runFor(p, account(bot, i), h.task())),
    );
    await h.settle();
    assert.equal(h.running, 8);
    await h.releaseAll();
    await Promise.all(runs);
    assert.equal(h.peak, 8);
  });

  it('runs many chats of a few bots in one wave when each bot is under its limit', async () => {
    const limiter = new PlatformLimiter();
    const h = harness();
    const p = publisher({ concurrency: 100, credentialConcurrency: 30 });
    const runs = Array.from({ length: 50 }, (_, i) => limiter.runFor(p, account(`bot${i % 5}`, i), h.task()));
    await h.settle();
    assert.equal(h.running, 50);
    await h.releaseAll();
    await Promise.all(runs);
  });

  it('queues one busy credential without holding back others', async () => {
    const limiter = new PlatformLimiter();
    const h = harness();
    const p = publisher();
    const busy = Array.from({ length: 6 }, (_, i) => limiter.runFor(p, account('A', i), h.task()));
    await h.settle();
    assert.equal(h.running, 3);
    const other = limiter.runFor(p, account('B', 9), h.task());
    await h.settle();
    assert.equal(h.running, 4, 'bot B starts although bot A has tasks waiting');
    await h.releaseAll();
    await Promise.all([...busy, other]);
  });

  it('applies configured overrides; an overall override also lifts the per-credential default', async () => {
    const p = publisher();
    const lifted = new PlatformLimiter({ platformLimits: new Map([['bots', 6]]) });
    let h = harness();
    let runs = Array.from({ length: 10 }, (_, i) => lifted.runFor(p, account('A', i), h.task()));
    await h.settle();
    assert.equal(h.running, 6);
    await h.releaseAll();
    await Promise.all(runs);

    const both = new PlatformLimiter({
      platformLimits: new Map([['bots', 6]]),
      credentialLimits: new Map([['bots', 2]]),
    });
    h = harness();
    runs = Array.from({ length: 10 }, (_, i) => both.runFor(p, account('A', i), h.task()));
    await h.settle();
    assert.equal(h.running, 2);
    await h.releaseAll();
    await Promise.all(runs);
  });

  it('releases slots when tasks fail', async () => {
    const limiter = new PlatformLimiter();
    const p = publisher({ credentialConcurrency: 1 });
    await assert.rejects(
      limiter.runFor(p, account('A', 1), async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await limiter.runFor(p, account('A', 2), async () => 'next'), 'next');
  });

  it('uses only the platform limit for publishers without a concurrency key', async () => {
    const limiter = new PlatformLimiter();
    const h = harness();
    const p = publisher({ concurrency: 4, concurrencyKey: undefined });
    const runs = Array.from({ length: 6 }, (_, i) => limiter.runFor(p, account('A', i), h.task()));
    await h.settle();
    assert.equal(h.running, 4);
    await h.releaseAll();
    await Promise.all(runs);
  });

  it('holds a publisher rate in every window, across accounts sharing the key', async () => {
    const limiter = new PlatformLimiter();
    const p = publisher({
      concurrency: 50,
      credentialConcurrency: 50,
      rateLimits: (a) => [{ scope: 'bot', key: String(a.credentials.bot), limit: 4, windowMs: 250 }],
    });
    const starts: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        limiter.runFor(p, account('A', i), async () => {
          starts.push(performance.now() - t0);
        }),
      ),
    );
    starts.sort((a, b) => a - b);
    // Sliding window: the (i+4)th start is at least a window after the ith.
    for (let i = 0; i + 4 < starts.length; i++) assert.ok(starts[i + 4]! - starts[i]! >= 249, `${starts}`);
    assert.ok(starts.at(-1)! < 350 * 2 + 200, 'no needless waiting (window + 100 ms margin)');
  });

  it('turns a rate off or replaces it from the configuration', async () => {
    const p = publisher({
      concurrency: 50,
      credentialConcurrency: 50,
      rateLimits: () => [{ scope: 'bot', key: 'A', limit: 1, windowMs: 60_000 }],
    });
    const off = new PlatformLimiter({ rateLimits: new Map([['bots:bot', null]]) });
    await Promise.all(Array.from({ length: 5 }, (_, i) => off.runFor(p, account('A', i), async () => {})));
    const raised = new PlatformLimiter({
      rateLimits: new Map([['bots:bot', { limit: 5, windowMs: 60_000 }]]),
    });
    await Promise.all(Array.from({ length: 5 }, (_, i) => raised.runFor(p, account('A', i), async () => {})));
  });

  it('applies a rate documented as off only when the configuration sets it', async () => {
    const p = publisher({
      concurrency: 50,
      credentialConcurrency: 50,
      rateLimits: () => [{ scope: 'chat', key: 'c', limit: 1, windowMs: 60_000, enabled: false }],
    });
    const byDefault = new PlatformLimiter();
    await Promise.all(
      Array.from({ length: 3 }, (_, i) => byDefault.runFor(p, account('A', i), async () => {})),
    );
    const configured = new PlatformLimiter({
      rateLimits: new Map([['bots:chat', { limit: 2, windowMs: 60_000 }]]),
    });
    const started: number[] = [];
    const runs = Array.from({ length: 3 }, (_, i) =>
      configured.runFor(p, account('A', i), async () => void started.push(i)),
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(started, [0, 1], 'the third waits for the window');
    void runs;
  });

  it('hands a freed slot of the memory store to the waiters in arrival order, one grant per slot', async () => {
    const limiter = new PlatformLimiter();
    const order: number[] = [];
    const h = harness();
    const runs = Array.from({ length: 20 }, (_, i) =>
      limiter.run('p', 3, async () => {
        order.push(i);
        return h.task()();
      }),
    );
    await h.settle();
    assert.equal(h.running, 3);
    // Free one slot at a time: exactly the next waiter in line starts each time.
    for (let started = 3; started < 20; started++) {
      assert.equal(order.length, started);
      await h.releaseOne();
      assert.equal(order.length, started + 1, 'one freed slot, one more started');
      assert.equal(h.running, 3, 'never more than the limit');
    }
    await h.releaseAll();
    await Promise.all(runs);
    assert.deepEqual(order, [...Array(20).keys()], 'first come, first served');
    assert.equal(h.peak, 3);
  });

  it('queues waiters on a key in order and asks the store once per grant, not once per waiter', async () => {
    const inner = new MemoryLimitStore();
    let asked = 0;
    const store = {
      pollMs: 20,
      tryAcquire: (requests: readonly LimitRequest[]) => {
        asked++;
        return inner.tryAcquire(requests);
      },
    };
    const limiter = new PlatformLimiter({ store });
    const order: number[] = [];
    const h = harness();
    const runs = Array.from({ length: 20 }, (_, i) =>
      limiter.run('p', 2, async () => {
        order.push(i);
        return h.task()();
      }),
    );
    await h.settle();
    assert.equal(h.running, 2);
    await h.releaseAll();
    await Promise.all(runs);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      'first come, first served',
    );
    assert.ok(asked < 20 * 3, `asked the store ${asked} times for 20 grants`);
  });

  it("keeps a burst above a key's limit to about one store call per grant, asked together (a shared store)", async () => {
    // Like the database store: answers a turn later, the calls of one turn as one statement, and a
    // release is written a turn later too.
    const inner = new MemoryLimitStore();
    let calls = 0;
    let statements = 0;
    const pending: (() => void)[] = [];
    const statement = <T>(run: () => T): Promise<T> =>
      new Promise((resolve) => {
        if (pending.length === 0)
          setImmediate(() => {
            statements++;
            for (const answer of pending.splice(0)) answer();
          });
        pending.push(() => resolve(run()));
      });
    const store: LimitStore = {
      pollMs: 60_000,
      tryAcquire: async (requests) => {
        calls++;
        const attempt = await statement(() => inner.tryAcquire(requests));
        if (!attempt.granted) return attempt;
        const { release } = attempt.grant;
        return { granted: true, grant: { release: () => statement(() => void release()) } };
      },
    };
    const limiter = new PlatformLimiter({ store });
    const posts = 600;
    let running = 0;
    let peak = 0;
    const run = (i: number) =>
      limiter.run(
        'p',
        100,
        async () => {
          peak = Math.max(peak, ++running);
          for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
          running--;
          return i;
        },
        { key: `bot${i % 4}`, concurrency: 30 },
      );
    // The platform's limit taken, then the rest of the burst arrives.
    const runs = Array.from({ length: 100 }, (_, i) => run(i));
    await new Promise((resolve) => setImmediate(resolve));
    runs.push(...Array.from({ length: posts - 100 }, (_, i) => run(100 + i)));
    assert.equal((await Promise.all(runs)).length, posts);
    assert.equal(peak, 100);
    // Before: each waiter asked alone after the one ahead of it was granted (a statement per post),
    // and the whole burst asked once to be refused.
    assert.ok(calls < posts * 1.2, `${calls} store calls for ${posts} grants`);
    assert.ok(statements < posts / 10, `${statements} statements for ${posts} grants`);
  });

  it('hands a slot on at once when the store applies a release before later acquisitions', async () => {
    // Like the database store: a release rides with the next acquisition, so it is written only
    // when someone asks (here: never, until the end). The waiter must not wait for that write.
    const inner = new MemoryLimitStore();
    const unwritten: (() => void)[] = [];
    const store: LimitStore = {
      pollMs: 60_000,
      releasesBeforeLaterAcquisitions: true,
      tryAcquire: (requests) => {
        const attempt = inner.tryAcquire(requests);
        if (!attempt.granted) return attempt;
        const { release } = attempt.grant;
        return {
          granted: true,
          grant: {
            release: () => {
              release();
              return new Promise<void>((written) => unwritten.push(written));
            },
          },
        };
      },
    };
    const limiter = new PlatformLimiter({ store });
    const order: number[] = [];
    const runs = [0, 1, 2].map((i) =>
      limiter.run('p', 1, async () => {
        order.push(i);
      }),
    );
    await Promise.all(runs);
    assert.deepEqual(order, [0, 1, 2]);
    assert.equal(unwritten.length, 3, 'no release was written, and none was waited for');
    for (const written of unwritten) written();
  });
});
