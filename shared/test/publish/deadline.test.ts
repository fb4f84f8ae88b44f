import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { runWithDeadline, withDeadline } from '../../src/http/deadline.ts';
import { platformFetch } from '../../src/http/fetch.ts';

/** Counts timers set and not yet cleared or fired while `work` runs. */
async function outstandingTimers(work: () => Promise<void> | void): Promise<number> {
  const live = new Set<unknown>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) => {
    const timer = realSet(
      () => {
        live.delete(timer);
        fn();
      },
      ms,
      ...args,
    );
    live.add(timer);
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
    live.delete(timer);
    realClear(timer);
  }) as typeof clearTimeout;
  try {
    await work();
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
  return live.size;
}

describe('withDeadline', () => {
  it('aborts with a TimeoutError when the time runs out', async () => {
    const deadline = withDeadline(undefined, 20);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(deadline.signal.aborted, true);
    assert.equal(deadline.timedOut, true);
    assert.equal((deadline.signal.reason as DOMException).name, 'TimeoutError');
  });

  it('follows the parent signal, and lets go of it and of its timer on dispose', () => {
    const parent = new AbortController();
    let deadline = withDeadline(parent.signal, 60_000);
    return outstandingTimers(() => {
      deadline = withDeadline(parent.signal, 60_000);
    }).then(async (left) => {
      assert.equal(left, 1, 'a deadline holds one timer');
      const cleared = await outstandingTimers(() => {
        deadline = withDeadline(parent.signal, 60_000);
        deadline.dispose();
      });
      assert.equal(cleared, 0, 'dispose clears it');
      check();
    });
    function check() {
      parent.abort(new Error('stop'));
      assert.equal(deadline.signal.aborted, false, 'no longer listening to the parent');
      const followed = withDeadline(parent.signal, 60_000);
      assert.equal(followed.signal.aborted, true, 'an aborted parent aborts at once');
      assert.equal(followed.timedOut, false);
    }
  });

  it('runWithDeadline disposes when the work settles, even when it throws', async () => {
    const left = await outstandingTimers(async () => {
      await runWithDeadline(undefined, 60_000, async () => 1);
      await assert.rejects(
        runWithDeadline(undefined, 60_000, async () => {
          throw new Error('boom');
        }),
      );
    });
    assert.equal(left, 0);
  });
});

describe('platformFetch deadline', () => {
  it('reads bodies whole, times out a slow answer, and bounds a body that stalls', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('late'), 500);
      else if (req.url === '/stall' || req.url === '/stall-big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(req.url === '/stall-big' ? 'x'.repeat(100_000) : 'start');
      } else res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      for (let i = 0; i < 20; i++) {
        const response = await platformFetch(`http://127.0.0.1:${port}/fast`, { timeoutMs: 60_000 });
        assert.equal(response.status, 200);
        assert.equal(await response.text(), '{"ok":true}');
      }
      await assert.rejects(platformFetch(`http://127.0.0.1:${port}/slow`, { timeoutMs: 50 }), {
        name: 'PlatformError',
        code: 'timeout',
      });
      // A small reply is read whole before platformFetch answers (plainFetch), so a stalled one
      // times out there; a larger one is streamed, and times out while it is read.
      await assert.rejects(platformFetch(`http://127.0.0.1:${port}/stall`, { timeoutMs: 150 }), {
        name: 'PlatformError',
        code: 'timeout',
      });
      const stalled = await platformFetch(`http://127.0.0.1:${port}/stall-big`, { timeoutMs: 150 });
      await assert.rejects(stalled.text(), 'the deadline still bounds reading the body');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
