import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProblemError } from '../../src/problems.ts';
import type { StorageError } from '../../src/storage/types.ts';
import { receiveMultipartUpload, requestFromWeb } from '../../src/storage/upload-multipart.ts';
import { paddedSample, samplePng } from '../fakes/sample-media.ts';
import { allFiles, tempLocalStorage } from './helpers.ts';

function form(bytes: Buffer, field = 'file', type = 'image/png'): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type }), 'photo.png');
  return body;
}

/** A Fetch request as a route handler receives it; `stream` drops Content-Length (chunked upload). */
async function webRequest(body: FormData | string, init: { stream?: boolean; type?: string } = {}) {
  const encoded = new Request('http://x/api/v1/upload', { method: 'POST', body });
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const headers: Record<string, string> = {
    'content-type': init.type ?? encoded.headers.get('content-type') ?? '',
  };
  if (!init.stream) headers['content-length'] = String(bytes.byteLength);
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.subarray(i, i + 4096));
      controller.close();
    },
  });
  return new Request('http://x/api/v1/upload', {
    method: 'POST',
    headers,
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

describe('receiveMultipartUpload (one parser for both servers)', () => {
  let local: Awaited<ReturnType<typeof tempLocalStorage>>;
  before(async () => {
    local = await tempLocalStorage();
  });
  after(() => local.cleanup());

  const receive = async (request: Request, maxBytes = 64 * 1024) =>
    receiveMultipartUpload({ storage: local.storage, request: requestFromWeb(request), maxBytes });

  it('streams the file in field "file" into storage, with or without Content-Length', async () => {
    for (const stream of [false, true]) {
      const media = await receive(await webRequest(form(samplePng()), { stream }));
      assert.equal(media.contentType, 'image/png');
      assert.equal(media.size, samplePng().length);
      assert.ok(await local.storage.head(media.key));
    }
  });

  it('refuses too large (413), wrong type (415), a body not multipart (415) and bad bodies (400), leaving nothing behind', async () => {
    const before = (await allFiles(local.directory)).length;
    const big = paddedSample(samplePng(), 80 * 1024);
    for (const stream of [false, true]) {
      await assert.rejects(receive(await webRequest(form(big), { stream })), (e: StorageError) => {
        assert.equal(e.code, 'too_large');
        return true;
      });
    }
    await assert.rejects(
      receive(await webRequest(form(Buffer.from('plain text'), 'file', 'text/plain'))),
      (e: StorageError) => e.code === 'unsupported_type',
    );
    const badRequests = [
      await webRequest(form(samplePng(), 'photo')),
      await webRequest('--x\r\nbroken', { type: 'multipart/form-data; boundary=x' }),
      await webRequest('no boundary', { type: 'multipart/form-data' }),
    ];
    const two = form(samplePng());
    two.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'b.png');
    badRequests.push(await webRequest(two));
    for (const request of badRequests) {
      await assert.rejects(receive(request), (e: ProblemError) => {
        assert.ok(e instanceof ProblemError, String(e));
        assert.equal(e.problem.code, 'invalid_request');
        return true;
      });
    }
    // A body that is not multipart at all is the wrong media type, as a JSON route says of others.
    for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      await assert.rejects(receive(await webRequest('{"file":1}', { type })), (e: ProblemError) => {
        assert.ok(e instanceof ProblemError, String(e));
        assert.equal(e.problem.code, 'unsupported_media_type', type);
        return true;
      });
    }
    assert.equal((await allFiles(local.directory)).length, before);
  });
});
