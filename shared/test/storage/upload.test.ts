import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { MediaObject } from '../../src/schemas/media.ts';
import { PresignResponse } from '../../src/schemas/presign.ts';
import type { LocalStorage } from '../../src/storage/local.ts';
import { createPresignedUpload, receiveSignedUpload, storeUpload } from '../../src/storage/upload.ts';
import {
  paddedSample,
  sampleGif,
  sampleJpeg,
  sampleMp4,
  samplePdf,
  samplePng,
} from '../fakes/sample-media.ts';
import { allFiles, chunked, readAll, tempLocalStorage } from './helpers.ts';

describe('storeUpload', () => {
  let storage: LocalStorage;
  let directory: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ storage, directory, cleanup } = await tempLocalStorage());
  });
  after(() => cleanup());

  const samples = [
    { name: 'PNG', bytes: samplePng(), type: 'image/png', extension: 'png' },
    { name: 'JPEG', bytes: sampleJpeg(), type: 'image/jpeg', extension: 'jpg' },
    { name: 'GIF', bytes: sampleGif(), type: 'image/gif', extension: 'gif' },
    { name: 'MP4', bytes: sampleMp4(), type: 'video/mp4', extension: 'mp4' },
    { name: 'PDF', bytes: samplePdf(), type: 'application/pdf', extension: 'pdf' },
  ];
  for (const sample of samples) {
    it(`sniffs a ${sample.name} from its bytes whatever the file name says`, async () => {
      const media = await storeUpload({
        storage,
        body: chunked(sample.bytes, 7),
        filename: 'Holiday Photo (1).txt',
        maxBytes: 10_000,
      });
      MediaObject.parse(media);
      assert.equal(media.contentType, sample.type);
      assert.equal(media.size, sample.bytes.length);
      assert.equal(media.storage, 'local');
      assert.equal(media.id, media.key);
      assert.match(media.key, new RegExp(`^[A-Za-z0-9]{22}-holiday-photo-1\\.${sample.extension}$`));
      assert.equal(media.filename, `holiday-photo-1.${sample.extension}`);
      assert.equal(media.url, `https://media.example.test/media/${media.key}`);
      assert.deepEqual(await readAll(await storage.read(media.key)), sample.bytes);
    });
  }

  it('keeps every byte of a file larger than the sniffing window', async () => {
    const bytes = paddedSample(sampleJpeg(), 50_000);
    const media = await storeUpload({
      storage,
      body: chunked(bytes, 3000),
      filename: 'big.jpg',
      maxBytes: 60_000,
    });
    assert.deepEqual(await readAll(await storage.read(media.key)), bytes);
  });

  it('accepts a matching declared type, including common aliases and parameters', async () => {
    for (const declaredType of [
      'image/jpeg',
      'image/jpg',
      'IMAGE/JPEG; charset=binary',
      'application/octet-stream',
      '',
    ]) {
      const media = await storeUpload({
        storage,
        body: chunked(sampleJpeg()),
        filename: 'a.jpg',
        declaredType,
        maxBytes: 10_000,
      });
      assert.equal(media.contentType, 'image/jpeg', declaredType);
    }
  });

  it('refuses a declared type the bytes disagree with, storing nothing', async () => {
    const before = await allFiles(directory);
    await assert.rejects(
      storeUpload({
        storage,
        body: chunked(samplePng()),
        filename: 'a.jpg',
        declaredType: 'image/jpeg',
        maxBytes: 10_000,
      }),
      { code: 'type_mismatch' },
    );
    assert.deepEqual(await allFiles(directory), before);
  });

  it('refuses bytes of no accepted type (text, HTML, empty), storing nothing', async () => {
    const before = await allFiles(directory);
    for (const bytes of [
      Buffer.from('just some text'),
      Buffer.from('<html><script>x</script></html>'),
      Buffer.alloc(0),
    ]) {
      await assert.rejects(
        storeUpload({ storage, body: chunked(bytes), filename: 'a.png', maxBytes: 10_000 }),
        {
          code: 'unsupported_type',
        },
      );
    }
    assert.deepEqual(await allFiles(directory), before);
  });

  it('refuses a file over maxBytes, leaving nothing behind', async () => {
    const before = await allFiles(directory);
    for (const size of [5000, 200_000]) {
      await assert.rejects(
        storeUpload({
          storage,
          body: chunked(paddedSample(samplePng(), size)),
          filename: 'a.png',
          maxBytes: 4096,
        }),
        { code: 'too_large' },
      );
    }
    assert.deepEqual(await allFiles(directory), before);
  });

  it('fails cleanly when the client drops mid-upload', async () => {
    const before = await allFiles(directory);
    async function* dropping() {
      yield paddedSample(samplePng(), 5000);
      throw new Error('aborted');
    }
    await assert.rejects(
      storeUpload({ storage, body: Readable.from(dropping()), filename: 'a.png', maxBytes: 100_000 }),
      /aborted/,
    );
    assert.deepEqual(await allFiles(directory), before);
  });
});

describe('presigned uploads to local storage', () => {
  let storage: LocalStorage;
  let directory: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ storage, directory, cleanup } = await tempLocalStorage());
  });
  after(() => cleanup());

  const png = paddedSample(samplePng(), 300);
  const presign = (now?: Date) =>
    createPresignedUpload({
      storage,
      request: { filename: 'My Pic.png', contentType: 'image/png', size: png.length },
      maxBytes: 10_000,
      ...(now ? { now } : {}),
    });
  const receive = (
    response: PresignResponse,
    overrides: {
      body?: Buffer;
      contentType?: string | undefined;
      contentLength?: string | undefined;
      url?: string;
    } = {},
  ) => {
    const url = new URL(overrides.url ?? response.uploadUrl);
    const body = overrides.body ?? png;
    return receiveSignedUpload({
      storage,
      key: decodeURIComponent(url.pathname.split('/').pop()!),
      query: url.searchParams,
      body: chunked(body, 64),
      contentType: 'contentType' in overrides ? overrides.contentType : response.headers['Content-Type'],
      contentLength: 'contentLength' in overrides ? overrides.contentLength : String(body.length),
    });
  };

  it('returns the documented shape with a self-signed URL valid for 15 minutes', async () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    const response = await presign(now);
    PresignResponse.parse(response);
    assert.equal(response.method, 'PUT');
    assert.deepEqual(response.headers, { 'Content-Type': 'image/png' });
    assert.equal(response.expiresAt, '2030-01-01T00:15:00.000Z');
    assert.equal(response.media.size, png.length);
    assert.equal(response.media.contentType, 'image/png');
    assert.match(response.media.key, /^[A-Za-z0-9]{22}-my-pic\.png$/);
    const url = new URL(response.uploadUrl);
    assert.equal(`${url.origin}${url.pathname}`, response.media.url);
    assert.deepEqual([...url.searchParams.keys()].sort(), ['expires', 'signature', 'size', 'type']);
  });

  it('refuses up front a size over the limit or a type we never accept', async () => {
    await assert.rejects(
      createPresignedUpload({
        storage,
        request: { filename: 'a.png', contentType: 'image/png', size: 10_001 },
        maxBytes: 10_000,
      }),
      { code: 'too_large' },
    );
    await assert.rejects(
      createPresignedUpload({
        storage,
        request: { filename: 'a.svg', contentType: 'image/svg+xml', size: 100 },
        maxBytes: 10_000,
      }),
      { code: 'unsupported_type' },
    );
  });

  it('stores exactly the signed bytes, once', async () => {
    const response = await presign();
    const media = await receive(response);
    assert.deepEqual(media, response.media);
    assert.deepEqual(await readAll(await storage.read(media.key)), png);
    await assert.rejects(receive(response), { code: 'already_exists' });
  });

  it('rejects wrong length, wrong type, tampering and expiry, storing nothing', async () => {
    const before = await allFiles(directory);
    const tamper = (url: string, name: string, value: string) => {
      const parsed = new URL(url);
      parsed.searchParams.set(name, value);
      return parsed.toString();
    };
    const cases: Array<{ name: string; code: string; run: (response: PresignResponse) => Promise<unknown> }> =
      [
        {
          name: 'longer body',
          code: 'length_mismatch',
          run: (r) => receive(r, { body: Buffer.concat([png, png]) }),
        },
        {
          name: 'shorter body',
          code: 'length_mismatch',
          run: (r) => receive(r, { body: png.subarray(0, 200) }),
        },
        {
          name: 'body longer than its Content-Length',
          code: 'length_mismatch',
          run: (r) => receive(r, { body: Buffer.concat([png, png]), contentLength: String(png.length) }),
        },
        {
          name: 'body shorter than its Content-Length',
          code: 'length_mismatch',
          run: (r) => receive(r, { body: png.subarray(0, 200), contentLength: String(png.length) }),
        },
        {
          name: 'no Content-Length',
          code: 'length_mismatch',
          run: (r) => receive(r, { contentLength: undefined }),
        },
        {
          name: 'other Content-Type',
          code: 'type_mismatch',
          run: (r) => receive(r, { contentType: 'image/jpeg' }),
        },
        {
          name: 'no Content-Type',
          code: 'type_mismatch',
          run: (r) => receive(r, { contentType: undefined }),
        },
        {
          name: 'bytes of another type',
          code: 'type_mismatch',
          run: (r) => receive(r, { body: paddedSample(sampleJpeg(), png.length) }),
        },
        {
          name: 'bytes of no known type',
          code: 'type_mismatch',
          run: (r) => receive(r, { body: Buffer.alloc(png.length, 0x41) }),
        },
        {
          name: 'size changed in the URL',
          code: 'invalid_signature',
          run: (r) =>
            receive(r, { url: tamper(r.uploadUrl, 'size', '600'), body: paddedSample(samplePng(), 600) }),
        },
        {
          name: 'type changed in the URL',
          code: 'invalid_signature',
          run: (r) =>
            receive(r, { url: tamper(r.uploadUrl, 'type', 'image/jpeg'), contentType: 'image/jpeg' }),
        },
        {
          name: 'expiry pushed out',
          code: 'invalid_signature',
          run: (r) => receive(r, { url: tamper(r.uploadUrl, 'expires', '99999999999') }),
        },
        {
          name: 'signature altered',
          code: 'invalid_signature',
          run: (r) => receive(r, { url: tamper(r.uploadUrl, 'signature', '0'.repeat(64)) }),
        },
        {
          name: 'signature missing',
          code: 'invalid_signature',
          run: (r) => {
            const url = new URL(r.uploadUrl);
            url.searchParams.delete('signature');
            return receive(r, { url: url.toString() });
          },
        },
        {
          name: 'another key',
          code: 'invalid_signature',
          run: (r) => receive(r, { url: r.uploadUrl.replace('-my-pic.png', '-other.png') }),
        },
      ];
    for (const testCase of cases) {
      const response = await presign();
      await assert.rejects(testCase.run(response), { code: testCase.code }, testCase.name);
      assert.equal(await storage.head(response.media.key), null, testCase.name);
    }
    const expired = await presign(new Date(Date.now() - 901_000));
    await assert.rejects(receive(expired), { code: 'expired' });
    assert.equal(await storage.head(expired.media.key), null);
    assert.deepEqual(await allFiles(directory), before);
  });
});
