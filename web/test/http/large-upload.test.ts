import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';

/**
 * Uploads bigger than Next's proxy buffer (10 MiB): while the proxy runs for a request, Next
 * hands the route only the first 10 MiB of its body, so the upload routes are kept out of it
 * (web/proxy.ts) and must still arrive whole, with the security headers the proxy would set.
 */
const size = 12 * 1024 * 1024;

/** A PNG of about 12.6 MB: random pixels, stored uncompressed. */
async function bigPng(): Promise<Buffer> {
  const side = 2048;
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i += 4) pixels.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  const png = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  assert.ok(png.length > size, `${png.length} bytes`);
  return png;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

for (const backend of backends().slice(0, 1)) {
  describe(`uploads over 10 MiB (${backend})`, () => {
    let env: TelegramApp;
    let png: Buffer;
    before(async () => {
      env = await startTelegramApp(backend, { MAX_UPLOAD_BYTES: String(32 * 1024 * 1024) });
      png = await bigPng();
    });
    after(() => env?.stop());

    test('a multipart upload and a presigned PUT arrive whole, with the security headers', async () => {
      const { api } = await userWithToken(env.app.url, 'big-uploads');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'big.png');
      const uploaded = await api.fetch('/api/v1/upload', { method: 'POST', body: form });
      const body = await uploaded.json();
      assert.equal(uploaded.status, 201, JSON.stringify(body));
      assert.equal(body.media.size, png.length);
      assert.equal(uploaded.headers.get('x-content-type-options'), 'nosniff');
      assert.match(uploaded.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const served = await fetch(body.media.url);
      assert.equal(served.status, 200);
      assert.equal(sha256(new Uint8Array(await served.arrayBuffer())), sha256(png));

      // Other bytes than the multipart upload's, so the library does not answer with that one.
      const other = Buffer.from(png);
      other.writeUInt8(other.readUInt8(other.length - 20) ^ 0xff, other.length - 20);
      const presigned = await api.json('/api/v1/upload/presign', {
        json: { filename: 'big-direct.png', contentType: 'image/png', size: other.length },
      });
      assert.equal(presigned.status, 201, JSON.stringify(presigned.body));
      const put = await fetch(presigned.body.uploadUrl, {
        method: 'PUT',
        headers: presigned.body.headers,
        body: new Uint8Array(other),
      });
      assert.equal(put.status, 201, await put.clone().text());
      assert.equal((await put.json()).media.size, other.length);
      assert.equal(put.headers.get('content-security-policy'), 'sandbox');
      const direct = await fetch(presigned.body.media.url);
      assert.equal(sha256(new Uint8Array(await direct.arrayBuffer())), sha256(other));
    });

    test('/media answers a missing file with a problem body and a malformed path with 400', async () => {
      const missing = await fetch(`${env.app.url}/media/nothing-here.png`);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('content-type'), 'application/problem+json');
      assert.equal((await missing.json()).code, 'not_found');
      assert.equal(missing.headers.get('content-security-policy'), 'sandbox');
      const malformed = await fetch(`${env.app.url}/media/%ZZ`);
      assert.equal(malformed.status, 400);
      assert.equal((await malformed.json()).code, 'invalid_request');
    });
  });
}
