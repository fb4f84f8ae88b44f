import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { S3Storage } from '../../src/storage/s3.ts';
import { serveMedia } from '../../src/storage/serve.ts';
import { createPresignedUpload, storeUpload } from '../../src/storage/upload.ts';
import { paddedSample, type RunningS3, sampleJpeg, samplePng, startS3rver } from '../fakes/index.ts';
import { chunked, readAll } from './helpers.ts';

describe('S3Storage against s3rver', () => {
  let s3: RunningS3;
  let storage: S3Storage;
  before(async () => {
    s3 = await startS3rver();
    storage = new S3Storage(s3.storageOptions);
  });
  after(async () => {
    await storage.close();
    await s3.close();
  });

  it('puts, heads, reads ranges, blobs and deletes an object', async () => {
    const bytes = paddedSample(samplePng(), 3000);
    const stored = await storage.put('s3-photo.png', chunked(bytes), {
      contentType: 'image/png',
      maxBytes: 10_000,
    });
    assert.equal(stored.size, 3000);
    assert.equal(stored.contentType, 'image/png');
    assert.ok(stored.etag);

    const head = await storage.head('s3-photo.png');
    assert.equal(head?.size, 3000);
    assert.equal(head?.contentType, 'image/png');
    assert.deepEqual(await readAll(await storage.read('s3-photo.png')), bytes);
    assert.deepEqual(
      await readAll(await storage.read('s3-photo.png', { start: 5, end: 14 })),
      bytes.subarray(5, 15),
    );

    const blob = await storage.blob('s3-photo.png');
    assert.equal(blob.type, 'image/png');
    assert.deepEqual(Buffer.from(await blob.arrayBuffer()), bytes);

    assert.equal(storage.publicUrl('s3-photo.png'), `${s3.endpoint}/${s3.bucket}/s3-photo.png`);
    const publicBytes = Buffer.from(await (await fetch(storage.publicUrl('s3-photo.png'))).arrayBuffer());
    assert.deepEqual(publicBytes, bytes);

    await storage.delete('s3-photo.png');
    assert.equal(await storage.head('s3-photo.png'), null);
    await assert.rejects(storage.read('s3-photo.png'), { code: 'not_found' });
    await storage.delete('s3-photo.png');
  });

  it('aborts a put past maxBytes and stores nothing, also once multipart has begun', async () => {
    for (const maxBytes of [1000, 9 * 1024 * 1024]) {
      await assert.rejects(
        storage.put('s3-too-big.png', chunked(paddedSample(samplePng(), maxBytes + 1), 64 * 1024), {
          contentType: 'image/png',
          maxBytes,
        }),
        { code: 'too_large' },
      );
      assert.equal(await storage.head('s3-too-big.png'), null);
    }
  });

  it('refuses invalid keys before any request', async () => {
    await assert.rejects(storage.head('../x'), { code: 'invalid_key' });
    await assert.rejects(
      storage.put('a/b', chunked(samplePng()), { contentType: 'image/png', maxBytes: 1000 }),
      { code: 'invalid_key' },
    );
  });

  it('passes its health check, and fails it for a missing bucket', async () => {
    await storage.check();
    const missing = new S3Storage({ ...s3.storageOptions, bucket: 'no-such-bucket' });
    await assert.rejects(missing.check(), { code: 'unavailable' });
    await missing.close();
  });

  it('takes uploads through storeUpload and serves them with serveMedia', async () => {
    const bytes = paddedSample(samplePng(), 2000);
    const media = await storeUpload({ storage, body: chunked(bytes), filename: 'Cat.png', maxBytes: 10_000 });
    assert.equal(media.storage, 's3');
    assert.equal(media.url, `${s3.endpoint}/${s3.bucket}/${media.key}`);
    const served = await serveMedia({ storage, key: media.key, range: 'bytes=0-9' });
    assert.equal(served.status, 206);
    assert.equal(served.headers['Content-Type'], 'image/png');
    assert.deepEqual(await readAll(served.body!), bytes.subarray(0, 10));
    const etag = served.headers.ETag!;
    assert.equal((await serveMedia({ storage, key: media.key, ifNoneMatch: etag })).status, 304);
    assert.equal((await serveMedia({ storage, key: 'AbCdEfGhIjKlMnOpQrStUv-none.png' })).status, 404);

    await assert.rejects(
      storeUpload({
        storage,
        body: chunked(paddedSample(samplePng(), 20_000)),
        filename: 'x.png',
        maxBytes: 10_000,
      }),
      { code: 'too_large' },
    );
  });

  it('issues presign responses whose URL accepts the declared file', async () => {
    const bytes = paddedSample(sampleJpeg(), 800);
    const response = await createPresignedUpload({
      storage,
      request: { filename: 'Dog.jpg', contentType: 'image/jpg', size: bytes.length },
      maxBytes: 10_000,
    });
    assert.equal(response.media.contentType, 'image/jpeg');
    assert.equal(response.media.storage, 's3');
    const put = await fetch(response.uploadUrl, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: response.headers,
    });
    assert.equal(put.status, 200, await put.text());
    const head = await storage.head(response.media.key);
    assert.equal(head?.size, bytes.length);
    assert.equal(head?.contentType, 'image/jpeg');
  });

  it('reports the sniffed type, not the Content-Type a presigned PUT claimed', async () => {
    const notAnImage = Buffer.from('<html><script>alert(1)</script></html>');
    const presigned = await storage.presignPut('claims-png.png', {
      contentType: 'image/png',
      size: notAnImage.length,
      expiresInSeconds: 900,
    });
    const response = await fetch(presigned.url, {
      method: 'PUT',
      body: new Uint8Array(notAnImage),
      headers: presigned.headers,
    });
    assert.equal(response.status, 200);
    assert.equal((await storage.head('claims-png.png'))?.contentType, 'application/octet-stream');
  });

  describe('presigned PUT', () => {
    const png = paddedSample(samplePng(), 500);
    const put = (url: string, body: Buffer, contentType: string) =>
      fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'Content-Type': contentType } });

    it('accepts exactly the signed bytes and type', async () => {
      const presigned = await storage.presignPut('pre-ok.png', {
        contentType: 'image/png',
        size: png.length,
        expiresInSeconds: 900,
      });
      assert.equal(presigned.method, 'PUT');
      assert.deepEqual(presigned.headers, { 'Content-Type': 'image/png' });
      const signedHeaders = new URL(presigned.url).searchParams.get('X-Amz-SignedHeaders')?.split(';');
      assert.ok(signedHeaders?.includes('content-type') && signedHeaders.includes('content-length'));
      assert.equal(new URL(presigned.url).searchParams.get('X-Amz-Expires'), '900');
      const response = await put(presigned.url, png, presigned.headers['Content-Type']!);
      assert.equal(response.status, 200, await response.text());
      const head = await storage.head('pre-ok.png');
      assert.equal(head?.size, png.length);
      assert.equal(head?.contentType, 'image/png');
    });

    it('rejects another length, another type, a tampered signature or an expired URL, storing nothing', async () => {
      const cases: Array<{
        name: string;
        key: string;
        attempt: (url: string) => Promise<Response>;
        signedAt?: Date;
      }> = [
        {
          name: 'longer body',
          key: 'pre-long.png',
          attempt: (url) => put(url, Buffer.concat([png, png]), 'image/png'),
        },
        {
          name: 'shorter body',
          key: 'pre-short.png',
          attempt: (url) => put(url, png.subarray(0, 400), 'image/png'),
        },
        { name: 'other type', key: 'pre-type.png', attempt: (url) => put(url, png, 'image/jpeg') },
        {
          name: 'tampered signature',
          key: 'pre-tamper.png',
          attempt: (url) => {
            const tampered = new URL(url);
            const signature = tampered.searchParams.get('X-Amz-Signature')!;
            tampered.searchParams.set(
              'X-Amz-Signature',
              `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`,
            );
            return put(tampered.toString(), png, 'image/png');
          },
        },
        {
          name: 'other key',
          key: 'pre-key.png',
          attempt: (url) => put(url.replace('pre-key.png', 'pre-key2.png'), png, 'image/png'),
        },
        {
          name: 'expired',
          key: 'pre-expired.png',
          signedAt: new Date(Date.now() - 901_000),
          attempt: (url) => put(url, png, 'image/png'),
        },
      ];
      for (const testCase of cases) {
        const presigned = await storage.presignPut(testCase.key, {
          contentType: 'image/png',
          size: png.length,
          expiresInSeconds: 900,
          ...(testCase.signedAt ? { signedAt: testCase.signedAt } : {}),
        });
        const response = await testCase.attempt(presigned.url);
        await response.arrayBuffer();
        assert.equal(response.status, 403, testCase.name);
        assert.equal(await storage.head(testCase.key), null, testCase.name);
      }
      assert.equal(await storage.head('pre-key2.png'), null);
    });
  });
});
