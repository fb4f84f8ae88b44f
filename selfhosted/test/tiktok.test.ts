import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type FakeTikTok, sampleJpeg, sampleMp4, startFakeTikTok } from '@postwave/shared/testing';
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
 * The self-hosted server publishing to TikTok over real HTTP: the accounts file holds the
 * creator's tokens, a video goes up by FILE_UPLOAD, photos are pulled by TikTok from the server's
 * /media URLs, and the privacy level is checked against creator_info before anything is posted.
 */
describe('self-hosted: TikTok', () => {
  let tiktok: FakeTikTok;
  let server: TestServer;
  before(async () => {
    tiktok = await startFakeTikTok();
    const port = await freePort();
    server = await startTestServer({
      accounts: [
        {
          id: 'tt-main',
          platform: 'tiktok',
          platformAccountId: tiktok.creator.openId,
          username: tiktok.creator.username,
          credentials: tiktok.credentials(),
        },
      ],
      env: {
        ...tiktok.env(),
        PORT: String(port),
        SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        PUBLISH_TIMEOUT_MS: '15000',
      },
    });
  });
  after(async () => {
    await server.close();
    await tiktok.close();
  });

  async function upload(bytes: Buffer, filename: string, type: string): Promise<Json> {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    const response = await server.api('/api/v1/upload', { method: 'POST', body });
    assert.equal(response.status, 201);
    return ((await response.json()) as Json).media;
  }

  async function validate(body: Record<string, unknown>): Promise<Json> {
    const response = await server.api('/api/v1/validation', { json: { accountIds: ['tt-main'], ...body } });
    return response.json();
  }

  it('validates: the privacy level is required and must be one creator_info offers; unaudited apps are warned', async () => {
    const video = await upload(sampleMp4(), 'v.mp4', 'video/mp4');
    const missing = await validate({ message: 'x', media: [video] });
    assert.equal(missing.valid, false);
    assert.deepEqual(
      missing.results[0].errors.map((e: Json) => [e.code, e.path]),
      [['option_required', 'accountOptions.tt-main.privacyLevel']],
    );
    const foreign = await validate({
      message: 'x',
      media: [video],
      accountOptions: { 'tt-main': { privacyLevel: 'FOLLOWER_OF_CREATOR' } },
    });
    assert.deepEqual(
      foreign.results[0].errors.map((e: Json) => e.code),
      ['option_not_offered'],
    );
    const unaudited = await validate({
      message: 'x',
      media: [video],
      accountOptions: { 'tt-main': { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    });
    assert.equal(unaudited.valid, true);
    assert.deepEqual(
      unaudited.results[0].warnings.map((w: Json) => w.code),
      ['unaudited_app_self_only'],
    );
    const tooLong = await validate({
      message: 'a'.repeat(2201),
      media: [video],
      accountOptions: { 'tt-main': { privacyLevel: 'SELF_ONLY' } },
    });
    assert.deepEqual(
      tooLong.results[0].errors.map((e: Json) => e.code),
      ['caption_too_long'],
    );
    const noMedia = await validate({
      message: 'x',
      accountOptions: { 'tt-main': { privacyLevel: 'SELF_ONLY' } },
    });
    assert.equal(noMedia.valid, false);
  });

  it('publishes a video uploaded by FILE_UPLOAD', async () => {
    const video = await upload(sampleMp4(), 'clip.mp4', 'video/mp4');
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'From the self-hosted server',
        accountIds: ['tt-main'],
        postingMode: 'now',
        media: [video],
        accountOptions: { 'tt-main': { privacyLevel: 'SELF_ONLY', disableStitch: true } },
      },
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    const post = tiktok.posts.find((p) => p.publishId === body.results[0].platformPostId)!;
    assert.equal(post.source, 'FILE_UPLOAD');
    assert.equal(Buffer.concat(post.received).length, sampleMp4().length);
    assert.equal(post.postInfo.title, 'From the self-hosted server');
    assert.equal(post.postInfo.disable_stitch, true);
  });

  it('publishes photos TikTok pulls from the server', async () => {
    const photos = [
      await upload(sampleJpeg(), 'a.jpg', 'image/jpeg'),
      await upload(sampleJpeg(), 'b.jpg', 'image/jpeg'),
    ];
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Two photos',
        accountIds: ['tt-main'],
        postingMode: 'now',
        media: photos,
        accountOptions: { 'tt-main': { privacyLevel: 'SELF_ONLY', title: 'Album' } },
      },
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    const post = tiktok.posts.at(-1)!;
    assert.equal(post.kind, 'photo');
    assert.deepEqual(
      post.downloaded.map((d) => d.bytes),
      [sampleJpeg().length, sampleJpeg().length],
    );
    assert.equal(post.postInfo.title, 'Album');
  });

  it('reports TikTok’s refusal of a public post from an unaudited app, permanently', async () => {
    const video = await upload(sampleMp4(), 'v.mp4', 'video/mp4');
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Public',
        accountIds: ['tt-main'],
        postingMode: 'now',
        media: [video],
        accountOptions: { 'tt-main': { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
      },
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 502, JSON.stringify(body));
    assert.equal(body.results[0].error.code, 'content_rejected');
    assert.equal(body.results[0].error.retryable, false);
    assert.match(body.results[0].error.message, /SELF_ONLY/);
  });
});
