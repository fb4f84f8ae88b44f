import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { samplePdf, samplePng } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The security headers (SECURITY.md, "Browser hardening") on the self-hosted server's pages and /media. */
describe('self-hosted security headers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  const upload = async (bytes: Buffer, type: string, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const response = await server.api('/api/v1/upload', { method: 'POST', body: form });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: { key: string } }).media.key;
  };

  test('/media: nosniff and sandbox always; PDF downloads, images show inline', async () => {
    const png = await upload(samplePng(), 'image/png', 'a.png');
    const pdf = await upload(samplePdf(), 'application/pdf', 'a.pdf');
    const image = await fetch(`${server.url}/media/${png}`);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(image.headers.get('content-security-policy'), 'sandbox');
    assert.equal(image.headers.get('content-disposition'), null);
    for (const method of ['GET', 'HEAD']) {
      const document = await fetch(`${server.url}/media/${pdf}`, { method });
      assert.equal(document.status, 200);
      assert.equal(document.headers.get('content-type'), 'application/pdf');
      assert.equal(document.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(document.headers.get('content-security-policy'), 'sandbox');
      assert.match(document.headers.get('content-disposition') ?? '', /^attachment/);
    }
    const ranged = await fetch(`${server.url}/media/${pdf}`, { headers: { range: 'bytes=0-3' } });
    assert.equal(ranged.status, 206);
    assert.match(ranged.headers.get('content-disposition') ?? '', /^attachment/);
    assert.equal(ranged.headers.get('content-security-policy'), 'sandbox');
    const missing = await fetch(`${server.url}/media/nothing-here.png`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, 'not_found');
    assert.equal(missing.headers.get('content-security-policy'), 'sandbox');
    assert.equal(missing.headers.get('x-content-type-options'), 'nosniff');
  });

  test('the docs page and every API answer: no framing, nothing loads that should not', async () => {
    const docs = await fetch(`${server.url}/docs`);
    assert.match(docs.headers.get('content-type') ?? '', /text\/html/);
    assert.match(docs.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(docs.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    for (const response of [
      docs,
      await fetch(`${server.url}/health`),
      await server.api('/api/v1/accounts'),
    ]) {
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(response.headers.get('referrer-policy'));
      assert.ok(response.headers.get('permissions-policy'));
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    }
  });
});
