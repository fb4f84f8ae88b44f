import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LocalStorage } from '../../src/storage/local.ts';
import { StorageError } from '../../src/storage/types.ts';
import { paddedSample, samplePng } from '../fakes/sample-media.ts';
import { allFiles, chunked, readAll, tempLocalStorage } from './helpers.ts';

describe('LocalStorage', () => {
  let storage: LocalStorage;
  let directory: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ storage, directory, cleanup } = await tempLocalStorage());
  });
  after(() => cleanup());

  it('stores a streamed file and reports it through head, read, ranges and blob', async () => {
    const bytes = paddedSample(samplePng(), 5000);
    const stored = await storage.put('abc-photo.png', chunked(bytes), {
      contentType: 'image/png',
      maxBytes: 10_000,
    });
    assert.equal(stored.size, 5000);
    assert.equal(stored.contentType, 'image/png');

    const head = await storage.head('abc-photo.png');
    assert.ok(head);
    assert.equal(head.size, 5000);
    assert.equal(head.contentType, 'image/png');
    assert.equal(head.etag, stored.etag);

    assert.deepEqual(await readAll(await storage.read('abc-photo.png')), bytes);
    assert.deepEqual(
      await readAll(await storage.read('abc-photo.png', { start: 10, end: 19 })),
      bytes.subarray(10, 20),
    );

    const blob = await storage.blob('abc-photo.png');
    assert.equal(blob.type, 'image/png');
    assert.equal(blob.size, 5000);
    assert.deepEqual(Buffer.from(await blob.arrayBuffer()), bytes);

    assert.equal(storage.publicUrl('abc-photo.png'), 'https://media.example.test/media/abc-photo.png');
  });

  it('keeps an ETag per stored version and changes it whenever the content is stored again', async () => {
    const a = await storage.put('etag-a.png', chunked(samplePng()), {
      contentType: 'image/png',
      maxBytes: 1000,
    });
    assert.match(a.etag, /^[A-Za-z0-9_-]+$/);
    assert.equal((await storage.head('etag-a.png'))?.etag, a.etag);
    assert.equal((await storage.head('etag-a.png'))?.etag, a.etag, 'stable across reads');
    const b = await storage.put('etag-b.png', chunked(samplePng()), {
      contentType: 'image/png',
      maxBytes: 1000,
    });
    assert.notEqual(a.etag, b.etag, 'another object has its own ETag');

    // The same key stored again, even with the same bytes and size, is a new version.
    await storage.delete('etag-a.png');
    const again = await storage.put('etag-a.png', chunked(samplePng()), {
      contentType: 'image/png',
      maxBytes: 1000,
    });
    assert.notEqual(again.etag, a.etag);
    assert.equal((await storage.head('etag-a.png'))?.etag, again.etag);

    // A file swapped by hand under the key gets a new ETag too.
    await writeFile(join(directory, 'etag-a.png'), paddedSample(samplePng(), 200));
    const swapped = await storage.head('etag-a.png');
    assert.equal(swapped?.size, 200);
    assert.notEqual(swapped?.etag, again.etag);
  });

  it('deletes a file and its metadata; deleting again is fine', async () => {
    await storage.put('to-delete.png', chunked(samplePng()), { contentType: 'image/png', maxBytes: 1000 });
    await storage.delete('to-delete.png');
    assert.equal(await storage.head('to-delete.png'), null);
    await storage.delete('to-delete.png');
    assert.ok(!(await allFiles(directory)).some((file) => file.includes('to-delete')));
    await assert.rejects(storage.read('to-delete.png'), { code: 'not_found' });
    await assert.rejects(storage.blob('to-delete.png'), { code: 'not_found' });
  });

  it('stops a write past maxBytes mid-stream and leaves no file or temp file', async () => {
    const before = await allFiles(directory);
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced += 1024;
        yield Buffer.alloc(1024, 1);
      }
    }
    const { Readable } = await import('node:stream');
    await assert.rejects(
      storage.put('too-big.png', Readable.from(endless()), { contentType: 'image/png', maxBytes: 10_000 }),
      (error) => error instanceof StorageError && error.code === 'too_large',
    );
    assert.ok(produced < 100_000, 'the write stopped soon after the limit');
    assert.deepEqual(await allFiles(directory), before);
    assert.equal(await storage.head('too-big.png'), null);
  });

  it('refuses a body of the wrong length when an exact size is expected, leaving nothing', async () => {
    const before = await allFiles(directory);
    for (const size of [99, 101]) {
      await assert.rejects(
        storage.put('exact.png', chunked(paddedSample(samplePng(), size)), {
          contentType: 'image/png',
          maxBytes: 1000,
          expectedSize: 100,
        }),
        { code: 'length_mismatch' },
      );
    }
    assert.deepEqual(await allFiles(directory), before);
  });

  it('never makes a half-written file visible and removes it when the source fails', async () => {
    const { Readable } = await import('node:stream');
    const before = await allFiles(directory);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* failing() {
      yield samplePng();
      await gate;
      throw new Error('connection reset');
    }
    const writing = storage.put('atomic.png', Readable.from(failing()), {
      contentType: 'image/png',
      maxBytes: 10_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await storage.head('atomic.png'), null, 'not visible while being written');
    release();
    await assert.rejects(writing, /connection reset/);
    assert.equal(await storage.head('atomic.png'), null);
    assert.deepEqual(await allFiles(directory), before);
  });

  it('writes a key once: a second put fails and keeps the first file', async () => {
    await storage.put('once.png', chunked(samplePng()), { contentType: 'image/png', maxBytes: 1000 });
    await assert.rejects(
      storage.put('once.png', chunked(paddedSample(samplePng(), 300)), {
        contentType: 'image/png',
        maxBytes: 1000,
      }),
      { code: 'already_exists' },
    );
    assert.equal((await storage.head('once.png'))?.size, samplePng().length);
  });

  it('refuses keys that could leave the directory or name hidden files', async () => {
    const bad = [
      '..',
      '../etc/passwd',
      'a/b',
      'a\\b',
      '%2e%2e',
      '%2e%2e%2fsecret',
      '/etc/passwd',
      '.meta',
      '.tmp',
      '',
      'C:\\x',
    ];
    for (const key of bad) {
      await assert.rejects(
        storage.put(key, chunked(samplePng()), { contentType: 'image/png', maxBytes: 1000 }),
        { code: 'invalid_key' },
        key,
      );
      await assert.rejects(storage.head(key), { code: 'invalid_key' }, key);
      await assert.rejects(storage.read(key), { code: 'invalid_key' }, key);
      await assert.rejects(storage.delete(key), { code: 'invalid_key' }, key);
    }
  });

  it('still describes a file placed without metadata by sniffing it', async () => {
    await writeFile(join(directory, 'by-hand.png'), samplePng());
    const head = await storage.head('by-hand.png');
    assert.equal(head?.contentType, 'image/png');
    assert.equal(head?.size, samplePng().length);
  });

  it('passes its health check', async () => {
    await storage.check();
  });

  it('fails its health check when a file cannot be written (the directory replaced by a file), then recovers', async () => {
    const other = await tempLocalStorage();
    try {
      await other.storage.check();
      // As root, permission bits never refuse: only a real write tells.
      await rm(other.directory, { recursive: true });
      await writeFile(other.directory, 'not a directory');
      await assert.rejects(other.storage.check(), (error: unknown) => {
        assert.ok(error instanceof StorageError && error.code === 'unavailable');
        assert.doesNotMatch(error.message, /postwave-local-/, 'the path stays out of the message');
        return true;
      });
      await rm(other.directory);
      await other.storage.check();
    } finally {
      await other.cleanup();
    }
  });
});
