import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryIdempotencyStore } from '../../src/index.ts';
import { storeConformance } from './store-conformance.ts';

describe('MemoryIdempotencyStore', () => {
  storeConformance(
    () => new MemoryIdempotencyStore(1000),
    () => 'caller',
  );

  it('drops the least recently used answers past maxEntries, never a running claim', async () => {
    const store = new MemoryIdempotencyStore(2);
    const now = new Date();
    const later = new Date(now.getTime() + 60_000);
    const ref = (key: string) => ({ scope: 's', key });
    const response = { status: 200, contentType: 'application/json', body: '{}' };
    assert.equal((await store.claim(ref('running'), 'f', now)).state, 'claimed');
    for (const key of ['a', 'b']) {
      await store.claim(ref(key), 'f', now);
      await store.complete(ref(key), response, later);
    }
    // a is used again, so b is now the least recently used.
    assert.equal((await store.claim(ref('a'), 'f', now)).state, 'completed');
    await store.claim(ref('c'), 'f', now);
    await store.complete(ref('c'), response, later);
    assert.equal((await store.claim(ref('running'), 'f', now)).state, 'in_progress');
    assert.equal((await store.claim(ref('a'), 'f', now)).state, 'completed');
    assert.equal((await store.claim(ref('c'), 'f', now)).state, 'completed');
    assert.equal((await store.claim(ref('b'), 'f', now)).state, 'claimed');
  });

  it('keeps scopes apart', async () => {
    const store = new MemoryIdempotencyStore(10);
    const now = new Date();
    assert.equal((await store.claim({ scope: 'one', key: 'k' }, 'f', now)).state, 'claimed');
    assert.equal((await store.claim({ scope: 'two', key: 'k' }, 'f', now)).state, 'claimed');
  });
});
