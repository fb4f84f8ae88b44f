import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type FakePinterest, sampleMp4, samplePng, startFakePinterest } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The self-hosted server pinning to two Pinterest boards of one login over real HTTP: images are
 * fetched by Pinterest from the server's /media URLs, videos go through POST /v5/media.
 */
describe('self-hosted: Pinterest', () => {
  let pinterest: FakePinterest;
  let server: TestServer;
  before(async () => {
    pinterest = await startFakePinterest();
    const port = await freePort();
    const credentials = pinterest.credentials();
    server = await startTestServer({
      accounts: [
        { id: 'pin-recipes', platform: 'pinterest', platformAccountId: pinterest.boards[0]!.id, credentials },
        { id: 'pin-travel', platform: 'pinterest', platformAccountId: pinterest.boards[1]!.id, credentials },
      ],
      env: {
        ...pinterest.env(),
        PORT: String(port),
        SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        PUBLISH_TIMEOUT_MS: '15000',
      },
    });
  });
  after(async () => {
    await server.close();
    await pinterest.close();
  });

  async function upload(bytes: Buffer, filename: string, type: string, altText?: string): Promise<Json> {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    const response = await server.api('/api/v1/upload', { method: 'POST', body });
    assert.equal(response.status, 201);
    const { media } = (await response.json()) as Json;
    return altText ? { ...media, altText } : media;
  }

  it('validates the description, the title, the section offered and media', async () => {
    const image = await upload(samplePng(), 'a.png', 'image/png');
    const validate = async (body: Record<string, unknown>) =>
      (
        await server.api('/api/v1/validation', { json: { accountIds: ['pin-recipes'], ...body } })
      ).json() as Promise<Json>;
    const ok = await validate({ message: 'a'.repeat(500), media: [image] });
    assert.equal(ok.valid, true);
    assert.deepEqual(
      ok.results[0].warnings.map((w: Json) => w.code),
      ['media_url_not_public'],
    );
    const long = await validate({ message: 'a'.repeat(501), media: [image] });
    assert.deepEqual(
      long.results[0].errors.map((e: Json) => e.code),
      ['description_too_long'],
    );
    const title = await validate({
      message: 'x',
      media: [image],
      accountOptions: { 'pin-recipes': { title: 't'.repeat(101) } },
    });
    assert.equal(title.valid, false);
    const section = await validate({
      message: 'x',
      media: [image],
      accountOptions: { 'pin-recipes': { boardSectionId: '5027629787972154999' } },
    });
    assert.deepEqual(
      section.results[0].errors.map((e: Json) => e.code),
      ['option_not_offered'],
    );
    const noMedia = await validate({ message: 'x' });
    assert.deepEqual(
      noMedia.results[0].errors.map((e: Json) => e.code),
      ['media_required'],
    );
  });

  it('pins an image with alt text, title, link and section, and a video to the second board', async () => {
    const image = await upload(samplePng(), 'cake.png', 'image/png', 'A cake');
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Cake',
        accountIds: ['pin-recipes'],
        postingMode: 'now',
        media: [image],
        accountOptions: {
          'pin-recipes': {
            title: 'Best cake',
            link: 'https://example.com/cake',
            boardSectionId: '5027629787972154693',
          },
        },
      },
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    const pin = pinterest.pins.find((p) => p.id === body.results[0].platformPostId)!;
    assert.deepEqual(
      [pin.boardId, pin.boardSectionId, pin.title, pin.link, pin.altText, pin.images[0]?.bytes],
      [
        '549755885175',
        '5027629787972154693',
        'Best cake',
        'https://example.com/cake',
        'A cake',
        samplePng().length,
      ],
    );
    assert.equal(body.results[0].url, `https://www.pinterest.com/pin/${pin.id}/`);

    const video = await upload(sampleMp4(), 'clip.mp4', 'video/mp4');
    const second = await server.api('/api/v1/posts', {
      json: { message: 'Trip', accountIds: ['pin-travel'], postingMode: 'now', media: [video] },
    });
    const secondBody = (await second.json()) as Json;
    assert.equal(second.status, 200, JSON.stringify(secondBody));
    const videoPin = pinterest.pins.find((p) => p.id === secondBody.results[0].platformPostId)!;
    assert.equal(videoPin.boardId, '549755885176');
    assert.equal(pinterest.media.get(videoPin.mediaId!)?.bytes, sampleMp4().length);
  });
});
