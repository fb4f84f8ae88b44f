import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LocalStorage } from '../../src/storage/local.ts';
import { parseRange, serveMedia } from '../../src/storage/serve.ts';
import { paddedSample, samplePng } from '../fakes/sample-media.ts';
import { chunked, readAll, tempLocalStorage } from './helpers.ts';

describe('serveMedia', () => {
  let storage: LocalStorage;
  let cleanup: () => Promise<void>;
  const bytes = paddedSample(samplePng(), 100);
  const key = 'AbCdEfGhIjKlMnOpQrStUv-photo.png';
  before(async () => {
    ({ storage, cleanup } = await tempLocalStorage());
    await storage.put(key, chunked(bytes), { contentType: 'image/png', maxBytes: 1000 });
  });
  after(() => cleanup());

  it('serves the whole file with safe, cacheable headers', async () => {
    const response = await serveMedia({ storage, key });
    assert.equal(response.status, 200);
    assert.equal(response.headers['Content-Type'], 'image/png');
    assert.equal(response.headers['Content-Length'], '100');
    assert.equal(response.headers['Accept-Ranges'], 'bytes');
    assert.equal(response.headers['X-Content-Type-Options'], 'nosniff');
    assert.match(response.headers['Cache-Control']!, /immutable/);
    assert.match(response.headers.ETag!, /^"[^"]+"$/);
    assert.ok(response.headers['Last-Modified']);
    assert.ok(response.body);
    assert.deepEqual(await readAll(response.body), bytes);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await serveMedia({ storage, key, method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['Content-Length'], '100');
    assert.equal(response.body, undefined);
  });

  const ranges: Array<[string, number, number]> = [
    ['bytes=0-9', 0, 9],
    ['bytes=-5', 95, 99],
    ['bytes=10-', 10, 99],
    ['bytes=90-500', 90, 99],
    ['bytes=-500', 0, 99],
  ];
  for (const [range, start, end] of ranges) {
    it(`serves ${range} as 206`, async () => {
      const response = await serveMedia({ storage, key, range });
      assert.equal(response.status, 206);
      assert.equal(response.headers['Content-Range'], `bytes ${start}-${end}/100`);
      assert.equal(response.headers['Content-Length'], String(end - start + 1));
      assert.deepEqual(await readAll(response.body!), bytes.subarray(start, end + 1));
    });
  }

  it('answers 416 for a range outside the file', async () => {
    for (const range of ['bytes=100-', 'bytes=500-600', 'bytes=-0']) {
      const response = await serveMedia({ storage, key, range });
      assert.equal(response.status, 416, range);
      assert.equal(response.headers['Content-Range'], 'bytes */100');
      assert.equal(response.body, undefined);
    }
  });

  it('ignores malformed or multiple ranges and serves the whole file', async () => {
    for (const range of ['bytes=a-b', 'items=0-1', 'bytes=0-1,5-6', 'bytes=9-3', 'bytes=-']) {
      const response = await serveMedia({ storage, key, range });
      assert.equal(response.status, 200, range);
      response.body?.destroy();
    }
  });

  it('answers 304 to a matching If-None-Match or an unchanged If-Modified-Since', async () => {
    const first = await serveMedia({ storage, key, method: 'HEAD' });
    const etag = first.headers.ETag!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await serveMedia({ storage, key, ifNoneMatch });
      assert.equal(response.status, 304, ifNoneMatch);
      assert.equal(response.body, undefined);
      assert.equal(response.headers.ETag, etag);
    }
    const changed = await serveMedia({ storage, key, ifNoneMatch: '"other"', method: 'HEAD' });
    assert.equal(changed.status, 200);

    const lastModified = first.headers['Last-Modified']!;
    assert.equal((await serveMedia({ storage, key, ifModifiedSince: lastModified })).status, 304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    const modified = await serveMedia({ storage, key, ifModifiedSince: earlier, method: 'HEAD' });
    assert.equal(modified.status, 200);
  });

  it('answers 404 for unknown keys and for anything that is not a key, however encoded', async () => {
    for (const bad of [
      'missing.png',
      '..',
      '../etc/passwd',
      '%2e%2e%2fetc',
      '..%2f..%2fx',
      '/etc/passwd',
      'a\\b',
      '.meta',
      '',
    ]) {
      const response = await serveMedia({ storage, key: bad });
      assert.equal(response.status, 404, bad);
      assert.equal(response.body, undefined);
    }
  });
});

describe('parseRange', () => {
  it('reads single ranges as inclusive offsets', () => {
    assert.deepEqual(parseRange('bytes=0-0', 10), { start: 0, end: 0 });
    assert.deepEqual(parseRange('bytes=5-', 10), { start: 5, end: 9 });
    assert.deepEqual(parseRange('bytes=-3', 10), { start: 7, end: 9 });
    assert.equal(parseRange(undefined, 10), undefined);
    assert.equal(parseRange('bytes=10-', 10), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-1', 0), 'unsatisfiable');
  });
});
