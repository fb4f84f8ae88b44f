/**
 * The fake server's held requests: a send left in flight until the test releases it, dropped
 * unhandled when its caller goes away first (a sender killed mid-send).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FakeServer } from './fake-server.ts';

let server: FakeServer;
let handled = 0;

before(async () => {
  server = new FakeServer().route('POST', /^\/send$/, () => {
    handled++;
    return { json: { ok: true } };
  });
  await server.start();
});
after(() => server.close());

const until = async (what: string, check: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('a held request whose caller goes away is never handled; a released one is', async () => {
  const held = server.hold(/^\/send$/);
  const gone = new AbortController();
  const abandoned = fetch(`${server.url}/send`, { method: 'POST', signal: gone.signal }).catch((e) => e);
  await until('the first request held', () => held.waiting === 1);
  gone.abort();
  assert.ok((await abandoned) instanceof Error);
  await until('the abandoned request dropped', () => held.waiting === 0);

  const waiting = fetch(`${server.url}/send`, { method: 'POST' });
  await until('the second request held', () => held.waiting === 1);
  assert.equal(handled, 0, 'nothing handled while held');
  held.release();
  assert.deepEqual(await (await waiting).json(), { ok: true });
  assert.equal(handled, 1, 'only the released request was handled');
  assert.equal(held.requests.length, 2);

  // Released: later requests pass at once.
  assert.equal((await fetch(`${server.url}/send`, { method: 'POST' })).status, 200);
  assert.equal(handled, 2);
});
